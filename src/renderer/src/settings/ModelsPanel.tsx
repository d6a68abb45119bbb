// Which engine runs each role and on which provider, model folder verification and download, the vector index.
import { useEffect, useState } from 'react';
import type { ModelRole, ModelVerifyReport } from '../../../shared/api';
import type { JobInfo } from '../../../shared/jobs';
import { approxWeightsBytes, modelFolderLayout, publishedModelInfo } from '../../../shared/published-models';
import type { Settings } from '../../../shared/settings';

type ModelSlot = Settings['models']['embedder'];
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { useJob } from '../app/use-job';
import { ProgressBar } from '../library/bits';

function VerifyReport({ report }: { report: ModelVerifyReport }) {
  return (
    <div className={report.ok ? 'note ok' : 'error-note'}>
      <strong>{report.ok ? 'Model folder is usable' : 'Model folder has problems'}</strong>
      {report.modelType && ` · ${report.modelType}`}
      {report.onnxFile && ` · ${report.onnxFile}`}
      {report.dtype && ` · ${report.dtype}`}
      {report.problems.length > 0 && (
        <ul>
          {report.problems.map((p, i) => (
            <li key={i}>
              {p.file && <code>{p.file}</code>} {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(bytes < 1e9 ? 2 : 1)} GB`;

/** What the download fetches, and how to get the same files onto a machine without network. */
function DownloadHelp({ role }: { role: ModelRole }) {
  const { repo } = publishedModelInfo[role];
  return (
    <details className="download-help small">
      <summary>
        Download size: about {gb(approxWeightsBytes.q8)} (q8), {gb(approxWeightsBytes.fp16)} (fp16),{' '}
        {gb(approxWeightsBytes.fp32)} (fp32). No network here?
      </summary>
      <p>
        Download these files elsewhere from <code>https://huggingface.co/{repo}</code>, copy them to this
        machine in one folder laid out as below, type that folder in “
        {role === 'embedder' ? 'Embedding' : 'Reranker'} model folder” above, then Verify folder and Use this
        folder.
      </p>
      <pre className="layout">{modelFolderLayout.map((line) => `<folder>/${line}`).join('\n')}</pre>
    </details>
  );
}

function RoleTools({ role, slot }: { role: ModelRole; slot: ModelSlot }) {
  const path = slot.path;
  const client = useClient();
  const action = useAction();
  const [report, setReport] = useState<ModelVerifyReport | null>(null);
  const [download, setDownload] = useState<JobInfo | null>(null);
  const job = useJob(download);
  return (
    <div className="role-tools">
      <div className="row wrap">
        <strong>{role}</strong>
        <button
          disabled={!path || action.busy}
          title={path ? `Check the files in ${path}` : 'Type the model folder above first'}
          onClick={async () =>
            setReport((await action.run(() => client.call('models.verify', { role, path }))) ?? null)
          }
        >
          Verify folder
        </button>
        <button
          disabled={!path || action.busy}
          onClick={async () =>
            setReport(
              (await action.run(() =>
                client.call('models.add', {
                  role,
                  path,
                  dtype: slot.dtype === 'auto' ? undefined : slot.dtype,
                  device: slot.device === 'auto' ? undefined : slot.device,
                }),
              )) ?? null,
            )
          }
        >
          Use this folder
        </button>
        <button
          disabled={action.busy}
          onClick={async () =>
            setDownload((await action.run(() => client.call('models.download', { role }))) ?? null)
          }
        >
          Download published model
        </button>
      </div>
      <DownloadHelp role={role} />
      {report && <VerifyReport report={report} />}
      {job && <ProgressBar progress={job.progress} label={`${role} download`} />}
      {job?.error && <ErrorNote error={{ code: job.error.code as never, message: job.error.message }} />}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}

/** The index holds embedding vectors: with the lexical recall engine there is nothing to build, and it says why. */
function BuildIndexButton({
  lexical,
  busy,
  onBuild,
}: {
  lexical: boolean;
  busy: boolean;
  onBuild: () => void;
}) {
  return (
    <div className="row wrap">
      <button disabled={busy || lexical} onClick={onBuild}>
        Build index
      </button>
      {lexical && (
        <span className="muted small" data-testid="index-disabled-reason">
          The recall engine is lexical (offline), which needs no vector index. Choose onnx or remote as the
          Recall engine under Scoring engines, save, then build.
        </span>
      )}
    </div>
  );
}

export function ModelsPanel({ slots }: { slots: Record<ModelRole, ModelSlot> }) {
  const client = useClient();
  const status = useApi('models.status', {});
  const index = useApi('index.status', {});
  const action = useAction();
  const [indexJob, setIndexJob] = useState<JobInfo | null>(null);
  const job = useJob(indexJob);
  const indexFinished = job?.status === 'done' ? job.id : null;
  const { reload: reloadIndex } = index;
  const { reload: reloadStatus } = status;
  useEffect(() => {
    if (!indexFinished) return;
    reloadIndex();
    reloadStatus();
  }, [indexFinished, reloadIndex, reloadStatus]);
  useCuratorEvent((e) => {
    if (e.type === 'models.changed') {
      status.reload();
      index.reload();
    }
  });
  return (
    <div className="models-panel">
      <h3>What runs now</h3>
      <ErrorNote error={status.error} />
      {status.data && (
        <table className="table" data-testid="engine-status">
          <thead>
            <tr>
              <th>Role</th>
              <th>Engine</th>
              <th>Model</th>
              <th>Provider</th>
              <th>Loaded</th>
            </tr>
          </thead>
          <tbody>
            {status.data.map((s) => (
              <tr key={s.role}>
                <td className="nowrap">{s.role}</td>
                <td>{s.engine}</td>
                <td>{s.id}</td>
                <td>
                  {s.provider ?? '—'}
                  {s.fallbackReason && <div className="muted small">fell back: {s.fallbackReason}</div>}
                </td>
                <td>{s.loaded ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RoleTools role="embedder" slot={slots.embedder} />
      <RoleTools role="reranker" slot={slots.reranker} />
      <h3>Vector index</h3>
      <ErrorNote error={index.error} />
      {index.data && (
        <p className="small" data-testid="index-status">
          {index.data.vectors} of {index.data.skills} skills embedded
          {index.data.modelId ? ` with ${index.data.modelId} (${index.data.dim}-d)` : ''}
          {index.data.stale ? ` · stale: ${index.data.staleReason ?? 'model changed'}` : ''}
          {index.data.skillSide
            ? ` · fast preset: skill side of ${index.data.skillSide.current} of ${index.data.skillSide.skills} skills`
            : ''}
        </p>
      )}
      <BuildIndexButton
        lexical={status.data?.find((s) => s.role === 'embedder')?.engine === 'lexical'}
        busy={action.busy}
        onBuild={async () => setIndexJob((await action.run(() => client.call('index.build', {}))) ?? null)}
      />
      {job && <ProgressBar progress={job.progress} label="Index build" />}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}
