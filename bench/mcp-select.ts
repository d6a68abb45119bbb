// select_skills latency over MCP on the sample library with the offline preset: the real CLI server over stdio and
// over Streamable HTTP (SDK client), next to a direct core call (`select.run`) in this process, on the same library
// file, tasks interleaved so all paths share the machine's load. Each sample task's hand-typed parse is either stored
// in the library (--parse stored, the default) or passed by the caller as an agent does (--parse agent: `subtasks` and
// `states` in select_skills, `parse` with parseBy 'agent' in the direct call), so every call runs the whole method
// without an LLM. Every MCP call is also recorded in the library's usage, as in use. Prints median and p95 per path
// and the ratio to the direct call.
// Run: npm run bench:mcp -- [--rounds 5] [--parse stored|agent] [--json]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createCore } from '../src/core';
import { createSelectService } from '../src/core/api/select-service';
import { saveManualTaskParse } from '../src/core/llm/parse-task';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    parse: { type: 'string', default: 'stored' },
    json: { type: 'boolean', default: false },
  },
});
if (args.parse !== 'stored' && args.parse !== 'agent') throw new Error('--parse is stored or agent');
const byAgent = args.parse === 'agent';
const rounds = Number(args.rounds);
const repoRoot = path.resolve(import.meta.dirname, '..');
const resources = path.join(repoRoot, 'resources');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-mcp-'));
const cli = (...a: string[]) => [
  '--import',
  'tsx',
  path.join(repoRoot, 'src/cli/main.ts'),
  '--data',
  dataDir,
  ...a,
];

const pct = (a: number[], p: number) =>
  [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))]!;

interface Task {
  task: string;
  parse: { subtasks: string[]; states: string[] };
}
const tasks = readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Task)
  .filter((t) => t.parse);

async function startHttp(): Promise<{ stop: () => void; url: URL; token: string }> {
  const child = spawn(process.execPath, cli('mcp', '--http', '--preset', 'offline'), {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /MCP \(Streamable HTTP\) on (\S+)/.exec(out)?.[1];
      const token = /Token: (\S+)/.exec(out)?.[1];
      if (url && token) resolve({ stop: () => child.kill('SIGTERM'), url: new URL(url), token });
    });
    child.on('exit', (code) => reject(new Error(`mcp --http exited ${code}`)));
  });
}

const core = createCore({ dataDir, resourcesDir: resources });
let stopHttp = () => {};
const clients: Client[] = [];
try {
  const job = await core['library.import']({ path: path.join(resources, 'sample-library') });
  if ((await core['jobs.wait']({ id: job.id })).status !== 'done') throw new Error('import failed');
  await core['states.import']({ path: path.join(resources, 'sample-states.jsonl'), verify: true });
  if (!byAgent)
    for (const t of tasks)
      saveManualTaskParse({ db: core.context.db, clock: () => new Date() }, { task: t.task, ...t.parse });

  const stdio = new Client({ name: 'bench-mcp', version: '1' });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: cli('mcp', '--preset', 'offline'),
      cwd: repoRoot,
    }),
  );
  const http = await startHttp();
  stopHttp = http.stop;
  const overHttp = new Client({ name: 'bench-mcp', version: '1' });
  await overHttp.connect(
    new StreamableHTTPClientTransport(http.url, {
      requestInit: { headers: { Authorization: `Bearer ${http.token}` } },
    }),
  );
  clients.push(stdio, overHttp);

  const viaMcp = (client: Client) => async (t: Task) => {
    const r = (await client.callTool({
      name: 'select_skills',
      arguments: { task: t.task, ...(byAgent ? t.parse : {}) },
    })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    if (r.isError) throw new Error(r.content[0]!.text);
    return (JSON.parse(r.content[0]!.text) as { answer: { name: string }[] }).answer.map((a) => a.name);
  };
  // The server's default rule (verified skills only) filters the recall; this direct call does the same.
  const verifiedOnly = createSelectService(core.context, { recallFilter: () => ({ status: 'verified' }) });
  const given = (t: Task) => (byAgent ? { parse: t.parse, parseBy: 'agent' as const } : {});
  const paths: Record<string, (t: Task) => Promise<string[]>> = {
    'direct core select.run': async (t) =>
      (await core['select.run']({ task: t.task, preset: 'offline', ...given(t) })).answer.map((a) => a.name),
    'direct, verified-only': async (t) =>
      (await verifiedOnly['select.run']({ task: t.task, preset: 'offline', ...given(t) })).answer.map(
        (a) => a.name,
      ),
    'MCP stdio select_skills': viaMcp(stdio),
    'MCP HTTP select_skills': viaMcp(overHttp),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  let disagreements = 0;
  // One unmeasured pass: module loading, prepared statements, the lexical index's first read.
  for (const t of tasks) for (const run of Object.values(paths)) await run(t);
  for (let r = 0; r < rounds; r++)
    for (const t of tasks) {
      const answers: string[] = [];
      for (const [name, run] of Object.entries(paths)) {
        const start = performance.now();
        const answer = await run(t);
        times[name]!.push(performance.now() - start);
        answers.push(answer.join(','));
      }
      if (new Set(answers).size > 1) disagreements++;
    }

  const base = pct(times['direct core select.run']!, 0.5);
  const rows = Object.entries(times).map(([name, t]) => ({
    path: name,
    calls: t.length,
    medianMs: pct(t, 0.5),
    p95Ms: pct(t, 0.95),
    medianVsDirect: pct(t, 0.5) / base,
    medianOverDirectMs: pct(t, 0.5) - base,
  }));
  if (args.json)
    console.log(
      JSON.stringify({ tasks: tasks.length, rounds, parse: args.parse, disagreements, rows }, null, 2),
    );
  else {
    console.log(
      `select_skills, offline preset, ${tasks.length} sample tasks × ${rounds} rounds (full variant), ` +
        `parse ${byAgent ? 'given by the caller (agent)' : 'stored in the library'}`,
    );
    for (const r of rows)
      console.log(
        `${r.path.padEnd(26)} median ${r.medianMs.toFixed(1).padStart(7)} ms  p95 ${r.p95Ms.toFixed(1).padStart(7)} ms  ×${r.medianVsDirect.toFixed(2)} of direct (${r.medianOverDirectMs >= 0 ? '+' : ''}${r.medianOverDirectMs.toFixed(1)} ms)`,
      );
    console.log(`answers that differ between the paths: ${disagreements} of ${tasks.length * rounds}`);
  }
} finally {
  for (const c of clients) await c.close().catch(() => {});
  stopHttp();
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
