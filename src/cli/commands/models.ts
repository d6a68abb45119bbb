// CLI: models status/verify/add/download, and the vector index.
import type { Command } from 'commander';
import { Option } from 'commander';
import type { ModelRole, ModelVerifyReport } from '../../shared/api';
import { followJob, printJobJson, printJson, printJsonReport, printLine } from '../output';
import { withCore } from '../run-command';

function printVerify(r: ModelVerifyReport): void {
  printLine(
    `${r.ok ? 'ok' : 'NOT USABLE'}: ${r.role} at ${r.path}${r.onnxFile ? ` (${r.onnxFile}, ${r.dtype})` : ''}`,
  );
  for (const p of r.problems) printLine(`  - ${p.file ? `${p.file}: ` : ''}${p.message}`);
}

const roleArg = (v: string): ModelRole => {
  if (v !== 'embedder' && v !== 'reranker') throw new Error('The role is embedder or reranker');
  return v;
};

export function registerModelCommands(program: Command): void {
  const models = program.command('models').description('local Qwen3 models (ONNX) and the engines in use');
  models
    .command('list', { isDefault: true })
    .description('engines in use and what runs them')
    .action(
      withCore(async (core, g) => {
        const status = await core['models.status']({});
        if (g.json) return printJson(status);
        for (const s of status) {
          printLine(
            `${s.role.padEnd(9)} ${s.engine.padEnd(8)} ${s.id}${s.provider ? ` on ${s.provider}` : ''}${s.fallbackReason ? ` (fallback: ${s.fallbackReason})` : ''}`,
          );
        }
      }),
    );
  models
    .command('verify <role> <folder>')
    .description('check that a folder holds a usable embedder or reranker export, without adding it')
    .action(
      withCore(async (core, g, role: string, folder: string) => {
        const r = await core['models.verify']({ role: roleArg(role), path: folder });
        if (g.json) return printJsonReport(r);
        printVerify(r);
        if (!r.ok) process.exitCode = 1;
      }),
    );
  models
    .command('add <role> <folder>')
    .description('use a local model folder (config.json, tokenizer, onnx/) for a role')
    .option(
      '--dtype <dtype>',
      'fp32 | fp16 | q8 | int8 | uint8 | q4 | q4f16 (default: q8 on CPU, fp16 on GPU)',
    )
    .addOption(
      new Option('--device <device>', 'execution provider').choices(['auto', 'cpu', 'cuda', 'dml', 'coreml']),
    )
    .action(
      withCore(async (core, g, role: string, folder: string, opts: { dtype?: string; device?: string }) => {
        const r = await core['models.add']({
          role: roleArg(role),
          path: folder,
          dtype: opts.dtype,
          device: opts.device,
        });
        if (g.json) return printJsonReport(r);
        printVerify(r);
        if (!r.ok) process.exitCode = 1;
        else
          printLine(
            `the ${role} now runs on ONNX${role === 'embedder' ? '; build the vector index with: index build' : ''}`,
          );
      }),
    );
  models
    .command('download <role>')
    .description('download the published ONNX export from the Hugging Face hub (resumable)')
    .option('--repo <repo>', 'hub repository')
    .option('--dtype <dtype>', 'which weights', 'q8')
    .action(
      withCore(async (core, g, role: string, opts: { repo?: string; dtype: string }) => {
        const final = await followJob(
          core,
          await core['models.download']({ role: roleArg(role), repo: opts.repo, dtype: opts.dtype }),
          !!g.json,
        );
        if (g.json) return printJobJson(final, final);
        if (final.status !== 'done')
          throw final.error ?? new Error(`download ${final.status}; resume it with: jobs resume ${final.id}`);
        printVerify((final.result as { verify: ModelVerifyReport }).verify);
      }),
    );

  const index = program.command('index').description('the vector index of recall texts (name | description)');
  index
    .command('status', { isDefault: true })
    .description('the model the index was built with, how many skills have vectors, and whether it is stale')
    .action(
      withCore(async (core, g) => {
        const s = await core['index.status']({});
        if (g.json) return printJson(s);
        printLine(
          `${s.modelId ?? 'no index'}${s.dim ? ` (${s.dim}-d)` : ''}: ${s.vectors}/${s.skills} skills${s.stale ? ` — stale: ${s.staleReason}` : s.staleReason ? ` — ${s.staleReason}` : ''}`,
        );
      }),
    );
  index
    .command('build')
    .description('embed new or changed skills (a resumable job)')
    .action(
      withCore(async (core, g) => {
        const final = await followJob(core, await core['index.build']({}), !!g.json);
        if (g.json) return printJobJson(final, final);
        if (final.status !== 'done') throw final.error ?? new Error(`index build ${final.status}`);
        printLine(JSON.stringify(final.result));
      }),
    );
}
