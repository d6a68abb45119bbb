// kill -9 of the CLI or the HTTP host in the middle of an import, a parse and an evaluation, then `jobs resume` from
// the other host: the library stays sound (integrity_check ok) and ends with the totals of a run without the kill.
// Real processes throughout: the CLI and `serve` as children, the LLM a loopback OpenAI server in this process.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { JobInfo } from '../../src/shared/jobs';
import type { EvalReport } from '../../src/shared/api';
import { spawnTs, type Child } from '../fixtures/jobs/child-process';
import { startOpenAiServer, type OpenAiServer, type RecordedRequest } from '../fixtures/openai-server';
import { skillMd, writeSkill } from '../fixtures/skills/library-fixture';
import { registerTextFunctions } from '../../src/core/store/text-packing';

const resourcesDir = path.resolve(import.meta.dirname, '../../resources');
const TOKEN = 'kill-resume-test-token-0123456789abcdef0123456789';
const children: Child[] = [];
let dir: string;
let llm: OpenAiServer;
/** While set, answers wait for it: the resumed job stays in flight while a second process looks at it. */
let gate: Promise<void> | null = null;
/** Skill names the parse asked the LLM about, in order. */
const parseRequests: string[] = [];

function lastUserText(req: RecordedRequest): string {
  return req.body?.messages.at(-1)?.content ?? '';
}

/** Deterministic answers: the parse of a skill names the skill; the `llm` selector picks the first candidate. */
beforeAll(async () => {
  llm = await startOpenAiServer({
    reply: async (req) => {
      const text = lastUserText(req);
      if (text.includes('You choose skills')) {
        if (gate) await gate;
        const first = /### Candidate 1\nname: (\S+)/.exec(text)?.[1];
        return { content: first ? `1. ${first}` : 'NONE', delayMs: 120 };
      }
      const name = /\nname: (\S+)/.exec(text)?.[1] ?? 'unknown';
      parseRequests.push(name);
      if (gate) await gate;
      return {
        content: `Precondition_State: Input for ${name} is available.\nCompletion_State: The ${name} result exists.`,
        usage: { prompt_tokens: 100, completion_tokens: 20 },
        delayMs: 150,
      };
    },
  });
});
afterAll(() => llm.close());

afterEach(() => {
  for (const c of children.splice(0))
    if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, SKILL_CURATOR_API_KEY: 'sk-test', SKILL_CURATOR_DATA: dir });

function cli(args: string[]): Child {
  const child = spawnTs('src/cli/main.ts', ['--data', dir, ...args], { env: env() });
  children.push(child);
  return child;
}

async function host(): Promise<{ child: Child; call: <T>(method: string, body: unknown) => Promise<T> }> {
  const child = spawnTs('src/cli/main.ts', ['--data', dir, 'serve', '--port', '0', '--token', TOKEN], {
    env: env(),
  });
  children.push(child);
  const url = (await child.waitFor(/Serving on (\S+)/))[1]!;
  const call = async <T>(method: string, body: unknown): Promise<T> => {
    const res = await fetch(`${url}/api/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(body),
    });
    const data = (await res.json()) as T;
    if (!res.ok) throw new Error(`${method}: ${JSON.stringify(data)}`);
    return data;
  };
  return { child, call };
}

/** The newest job of a kind, read from the file as a third process would; undefined while the file is not ready. */
function newestJob(kind: string): { id: string; status: string; done: number } | undefined {
  const file = path.join(dir, 'library.db');
  if (!existsSync(file)) return undefined;
  const db = new Database(file, { readonly: true });
  try {
    const row = db
      .prepare('SELECT id, status, progress FROM jobs WHERE kind = ? ORDER BY created_at DESC LIMIT 1')
      .get(kind) as { id: string; status: string; progress: string } | undefined;
    return (
      row && { id: row.id, status: row.status, done: (JSON.parse(row.progress) as { done: number }).done }
    );
  } catch {
    return undefined; // the owner is still creating the tables
  } finally {
    db.close();
  }
}

/** Waits until the owner's job of this kind has done `atLeast` items, and returns its id. */
async function jobAt(kind: string, atLeast: number, owner: Child): Promise<string> {
  for (;;) {
    const job = newestJob(kind);
    if (job && job.done >= atLeast) {
      expect(job.status, 'the job finished before it could be killed').toBe('running');
      return job.id;
    }
    if (owner.proc.exitCode !== null) throw new Error(`the owner exited early: ${owner.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

async function kill9(child: Child): Promise<void> {
  child.proc.kill('SIGKILL');
  expect((await child.exited).signal).toBe('SIGKILL');
}

async function stop(child: Child): Promise<void> {
  child.proc.kill('SIGTERM');
  await child.exited;
}

function integrity(file = path.join(dir, 'library.db')): string {
  const db = new Database(file, { readonly: true });
  registerTextFunctions(db); // the check reads the generated text columns
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

function totals(file: string) {
  const db = new Database(file, { readonly: true });
  registerTextFunctions(db); // skills_fts reads its external content through unpack_text
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get();
    return {
      skills: one('SELECT COUNT(*) FROM skills'),
      files: one('SELECT COUNT(*) FROM skill_files'),
      text: one('SELECT COUNT(*) FROM skills_fts'),
      names: one('SELECT group_concat(name) FROM (SELECT name FROM skills ORDER BY name)'),
      hashes: one(
        "SELECT group_concat(content_hash, '') FROM (SELECT content_hash FROM skills ORDER BY name)",
      ),
    };
  } finally {
    db.close();
  }
}

function openCore(): Core {
  return createCore({ dataDir: dir, resourcesDir });
}

async function waitDone(core: Core, job: JobInfo): Promise<JobInfo> {
  const final = await core['jobs.wait']({ id: job.id });
  expect(final.status).toBe('done');
  return final;
}

/** The sample library, its labels, and the loopback LLM as the endpoint. */
async function sampleLibrary(): Promise<void> {
  const core = openCore();
  await waitDone(core, await core['library.import']({ path: path.join(resourcesDir, 'sample-library') }));
  await core['labels.import']({ path: path.join(resourcesDir, 'sample-tasks.jsonl'), name: 'sample-tasks' });
  await core['settings.update']({
    patch: { llm: { baseURL: llm.baseURL, model: 'test-model', concurrency: 2, maxRetries: 0 } },
  });
  await core.close();
}

describe('kill -9 and resume from the other host', () => {
  it('an import killed in the CLI finishes in the HTTP host with the totals of an unbroken import', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sc-kill-'));
    const tree = path.join(dir, 'tree');
    // Enough skills that the import is still running well after its first 40 (batched imports write hundreds a second).
    for (let i = 0; i < 2000; i++) {
      const name = `skill-${String(i).padStart(4, '0')}`;
      writeSkill(tree, name, skillMd(name, `Skill number ${i}.`), { 'scripts/run.sh': `echo ${i}\n` });
    }
    // The app is open on the library while the CLI imports; the CLI dies, and the app must notice.
    const { child, call } = await host();
    const importer = cli(['import', tree]);
    const id = await jobAt('library.import', 40, importer);
    await kill9(importer);
    expect((await call<JobInfo>('jobs.get', { id })).status).toBe('interrupted');
    await call('jobs.resume', { id });
    const final = await call<JobInfo>('jobs.wait', { id });
    expect(final.status).toBe('done');
    await stop(child);
    expect(integrity()).toBe('ok');

    const reference = path.join(dir, 'reference');
    const core = createCore({ dataDir: reference, resourcesDir });
    await waitDone(core, await core['library.import']({ path: tree }));
    await core.close();
    expect(totals(path.join(dir, 'library.db'))).toEqual(totals(path.join(reference, 'library.db')));
  }, 180_000);

  it('a parse killed in the HTTP host finishes in the CLI, untouched by a host started meanwhile', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sc-kill-'));
    await sampleLibrary();
    const first = await host();
    await first.call('parse.skills', { only: 'unparsed' });
    const id = await jobAt('parse.skills', 8, first.child);
    await kill9(first.child);

    let open = () => {};
    gate = new Promise<void>((resolve) => (open = resolve));
    const asked = parseRequests.length;
    const resume = cli(['--json', 'jobs', 'resume', id]);
    try {
      while (parseRequests.length === asked) {
        if (resume.proc.exitCode !== null) throw new Error(resume.output());
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      // The CLI runs the job (its answers held back); the app or `serve` starts on the same library meanwhile.
      const second = await host();
      expect((await second.call<JobInfo[]>('jobs.list', {})).find((j) => j.id === id)?.status).toBe(
        'running',
      );
      await expect(second.call('jobs.resume', { id })).rejects.toThrow(/CONFLICT.*still running in process/);
      await stop(second.child);
    } finally {
      open();
      gate = null;
    }
    const exit = await resume.exited;
    expect(exit.code, resume.output()).toBe(0);
    expect(integrity()).toBe('ok');
    const afterKill = parseRequests.slice(asked);
    expect(new Set(afterKill).size, 'a skill was sent twice after the kill').toBe(afterKill.length);

    const core = openCore();
    try {
      const job = await core['jobs.get']({ id });
      expect(job.status).toBe('done');
      expect(job.progress.done).toBe(job.progress.total);
      const skills = core.context.db.prepare('SELECT id, name FROM skills ORDER BY id').all() as {
        id: number;
        name: string;
      }[];
      expect(skills).toHaveLength(48);
      for (const s of skills) {
        const states = await core['states.get']({ skillId: s.id });
        expect(states).toMatchObject({ status: 'parsed', completion: `The ${s.name} result exists.` });
      }
    } finally {
      await core.close();
    }
  }, 180_000);

  it('an evaluation killed in the CLI finishes in the HTTP host with the report of an unbroken run', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sc-kill-'));
    await sampleLibrary();
    const evaluation = cli(['eval', 'run', 'sample-tasks', '--variants', 'full,llm', '--k', '1']);
    const id = await jobAt('eval.run', 5, evaluation);
    await kill9(evaluation);

    const { child, call } = await host();
    let open = () => {};
    gate = new Promise<void>((resolve) => (open = resolve));
    const asked = llm.requests.length;
    try {
      await call('jobs.resume', { id });
      while (llm.requests.length === asked) await new Promise((resolve) => setTimeout(resolve, 40));
      // The host runs the job (its answers held back); the CLI looks at it and tries to resume it too.
      const list = cli(['--json', 'jobs', 'list']);
      expect((await list.exited).code, list.output()).toBe(0);
      const listed = JSON.parse(list.output().split('\n--- stderr ---')[0]!) as JobInfo[];
      expect(listed.find((j) => j.id === id)?.status).toBe('running');
      const twice = cli(['jobs', 'resume', id]);
      expect((await twice.exited).code).toBe(1);
      expect(twice.output()).toMatch(/error CONFLICT: Job \S+ is still running in process \d+/);
    } finally {
      open();
      gate = null;
    }
    const final = await call<JobInfo>('jobs.wait', { id });
    expect(final.status).toBe('done');
    const runId = (final.result as { runId: number }).runId;
    const resumed = await call<EvalReport>('eval.show', { runId });
    await stop(child);
    expect(integrity()).toBe('ok');

    const core = openCore();
    try {
      const set = (await core['labels.list']({})).find((s) => s.name === 'sample-tasks')!;
      const job = await waitDone(
        core,
        await core['eval.run']({ setId: set.id, variants: ['full', 'llm'], k: [1] }),
      );
      const unbroken = await core['eval.show']({ runId: (job.result as { runId: number }).runId });
      expect(resumed.status).toBe('done');
      // Everything but the time each task took.
      const untimed = (r: EvalReport) => r.summary.map(({ msPerTask: _ms, ...rest }) => rest);
      expect(untimed(resumed)).toEqual(untimed(unbroken));
      expect(resumed.recallAtK).toBe(unbroken.recallAtK);
      const rows = core.context.db.prepare('SELECT COUNT(*) FROM eval_results WHERE run_id = ?').pluck();
      expect(rows.get(runId)).toBe(rows.get(unbroken.runId));
    } finally {
      await core.close();
    }
  }, 180_000);
});
