// The model manager's step after a reranker folder is verified (added or downloaded): derive the yes/no graph beside
// the export once, so the first selection does not pay for it, and say in the report which file will run. An export
// with a key/value cache gets the variant that keeps it (prompt-prefix reuse), as the reranker loads by default.
import type { ModelVerifyReport } from '../../../shared/api/models';
import { errorText } from '../onnx/load-model';
import { QWEN3_NO, QWEN3_YES } from '../onnx/qwen3-reranker-template';

/** Adds `derivedFile` (or `derivedNote`, why the full-vocabulary graph will run) to a verified reranker's report. */
export async function addDerivedModel(report: ModelVerifyReport): Promise<ModelVerifyReport> {
  if (!report.ok || report.role !== 'reranker' || !report.onnxFile) return report;
  try {
    const withCache = (report.inputs ?? []).some((name) => name.startsWith('past_key_values.'));
    // The ONNX protobuf schema (protobufjs) loads here, when a reranker is verified, not with the core.
    const { ensureYesNoModel } = await import('../onnx/derive-yesno');
    const derived = await ensureYesNoModel(
      report.path,
      report.onnxFile,
      [QWEN3_YES, QWEN3_NO],
      withCache ? 'with-cache' : 'plain',
    );
    return { ...report, derivedFile: derived.file };
  } catch (error) {
    return { ...report, derivedNote: errorText(error) };
  }
}
