// kill -9 of the CLI in the middle of a parsing job, then `jobs resume` from a new process (issue 9, item 3): the
// library file stays sound and the resumed job's totals are those of a run without the kill.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../src/core/settings-store';
import { openDb } from '../../src/core/store/db';
import { repoRoot } from '../e2e/harness';
import { startOpenAiServer, userText, type OpenAiServer } from '../fixtures/openai-server';
import { insertSkill } from './llm-harness';

const SKILLS = 12;
let dataDir: string;
let server: OpenAiServer;

const nameOf = (text: string) => /\nname: (\S+)/.exec(text)?.[1] ?? '?';

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-kill-'));
  server = await startOpenAiServer({
    reply: (req) => ({
      content: `Precondition_State: None\nCompletion_State: The ${nameOf(userText(req))} result exists.`,
      usage: { prompt_tokens: 100, completion_tokens: 20 },
      delayMs: 40,
    }),
  });
  const db = openDb(path.join(dataDir, 'library.db'));
  db.prepare(
    "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (1, 'folder', '/skills', 'kill', '2026-01-01')",
  ).run();
  for (let i = 1; i <= SKILLS; i++) insertSkill(db, `k${i}`);
  new SettingsStore(db).update({
    llm: {
      baseURL: server.baseURL,
      model: 'test-model',
      maxRetries: 0,
      concurrency: 2,
      promptPricePerMTok: 1,
      completionPricePerMTok: 4,
    },
  });
  db.close();
});
afterEach(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function cli(args: string[], killAfterRequests?: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', '--data', dataDir, ...args], {
    cwd: repoRoot,
    env: { ...process.env, SKILL_CURATOR_API_KEY: 'k' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let timer: NodeJS.Timeout | undefined;
  if (killAfterRequests !== undefined) {
    timer = setInterval(() => {
      if (server.chatRequests().length >= killAfterRequests) child.kill('SIGKILL');
    }, 5);
  }
  return new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
    (resolve) =>
      child.on('exit', (code, signal) => {
        clearInterval(timer);
        resolve({ code, signal, stdout, stderr });
      }),
  );
}

describe('parsing job killed with -9 and resumed by another process', () => {
  it('ends with a sound file and the totals of an uninterrupted run', async () => {
    const killed = await cli(['--json', 'parse', 'skills'], 5);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');

    const db = openDb(path.join(dataDir, 'library.db'));
    const { id, parsedBefore } = {
      id: (db.prepare("SELECT id FROM jobs WHERE kind = 'parse.skills'").get() as { id: string }).id,
      parsedBefore: (
        db.prepare("SELECT COUNT(*) AS n FROM skill_states WHERE status = 'parsed'").get() as { n: number }
      ).n,
    };
    db.close();
    expect(parsedBefore).toBeGreaterThan(0);
    expect(parsedBefore).toBeLessThan(SKILLS);

    const resumed = await cli(['--json', 'jobs', 'resume', id]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const job = JSON.parse(resumed.stdout) as { status: string; result: Record<string, number> };
    expect(job.status).toBe('done');
    expect(job.result).toMatchObject({
      total: SKILLS,
      resumed: parsedBefore,
      parsed: SKILLS - parsedBefore,
      failed: 0,
      promptTokens: SKILLS * 100,
      completionTokens: SKILLS * 20,
    });
    expect(job.result.estimatedCost).toBeCloseTo((SKILLS * 100 * 1 + SKILLS * 20 * 4) / 1e6, 12);

    const after = openDb(path.join(dataDir, 'library.db'));
    try {
      expect(after.pragma('integrity_check', { simple: true })).toBe('ok');
      const parsed = after
        .prepare("SELECT COUNT(*) AS n FROM skill_states WHERE status = 'parsed'")
        .get() as {
        n: number;
      };
      expect(parsed.n).toBe(SKILLS);
    } finally {
      after.close();
    }
  }, 90_000);
});
