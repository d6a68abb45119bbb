// Startup cost of the CLI and the HTTP host: the compiled build (out/cli, what the bin and `npm start` run) against
// the TypeScript sources through tsx, measured in the same run. Prints medians and the ratio.
//   npm run bench:startup [-- --runs 7 --data DIR]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './median';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const launchers = {
  tsx: ['--import', 'tsx', path.join(root, 'src', 'cli', 'main.ts')],
  compiled: [path.join(root, 'out', 'cli', 'main.mjs')],
} as const;

export function helpSeconds(launcher: readonly string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, [...launcher, '--help'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return (performance.now() - start) / 1000;
}

/** From spawn to the first answered API call (library.stats) of `serve`. */
export async function hostFirstAnswerSeconds(
  launcher: readonly string[],
  data: string,
  dbFile?: string,
): Promise<number> {
  const start = performance.now();
  const db = dbFile ? ['--db', dbFile] : [];
  const child = spawn(process.execPath, [...launcher, '--data', data, ...db, 'serve', '--token', 'bench'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Serving on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const res = await fetch(`${url}/api/library.stats`, {
      method: 'POST',
      headers: { Authorization: 'Bearer bench', 'Content-Type': 'application/json' },
      body: '{}',
    });
    if (!res.ok) throw new Error(`library.stats answered ${res.status}`);
    await res.json();
    return (performance.now() - start) / 1000;
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '7' }, data: { type: 'string' } },
  });
  const runs = Number(values.runs);
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs')], { cwd: root });
  const data = values.data ?? mkdtempSync(path.join(os.tmpdir(), 'sc-startup-'));
  const rows: Record<string, { help: number; host: number }> = {};
  const samples: Record<'tsx' | 'compiled', { help: number[]; host: number[] }> = {
    tsx: { help: [], host: [] },
    compiled: { help: [], host: [] },
  };
  for (let i = 0; i < runs; i++) {
    for (const name of ['tsx', 'compiled'] as const) {
      samples[name].help.push(helpSeconds(launchers[name]));
      samples[name].host.push(await hostFirstAnswerSeconds(launchers[name], data));
    }
  }
  for (const name of ['tsx', 'compiled'] as const)
    rows[name] = { help: median(samples[name].help), host: median(samples[name].host) };
  console.log(`startup, median of ${runs} (seconds)`);
  console.log('launcher   --help   host to first answer');
  for (const [name, r] of Object.entries(rows))
    console.log(`${name.padEnd(10)} ${r.help.toFixed(3).padStart(6)}   ${r.host.toFixed(3).padStart(6)}`);
  console.log(
    `tsx / compiled: --help ${(rows.tsx!.help / rows.compiled!.help).toFixed(2)}x, host ${(rows.tsx!.host / rows.compiled!.host).toFixed(2)}x`,
  );
  if (!values.data) rmSync(data, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
