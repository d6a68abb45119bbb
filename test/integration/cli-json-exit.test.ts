// `--json` job commands exit non-zero when their job does not finish (issue 9, item 15): a script reading the JSON
// must be able to trust the exit status, as it can in text mode. Runs the real CLI against a real library file and
// the loopback OpenAI server answering 500.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../src/core/settings-store';
import { openDb } from '../../src/core/store/db';
import { startOpenAiServer, type OpenAiServer } from '../fixtures/openai-server';
import { insertSkill } from './llm-harness';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dataDir: string;
let server: OpenAiServer;

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-'));
  server = await startOpenAiServer({ reply: () => ({ status: 500, message: 'upstream exploded' }) });
  const db = openDb(path.join(dataDir, 'library.db'));
  db.prepare(
    "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (1, 'folder', '/skills', 'cli', '2026-01-01')",
  ).run();
  insertSkill(db, 'one');
  new SettingsStore(db).update({
    llm: { baseURL: server.baseURL, model: 'test-model', maxRetries: 0, timeoutMs: 5_000 },
  });
  db.close();
});
afterEach(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<CliResult> {
  return runCli(dataDir, args, { SKILL_CURATOR_API_KEY: 'k' });
}

describe('CLI --json exit status of job commands', () => {
  it('parse skills --json and jobs resume --json exit 1 when the job fails, with the job as JSON', async () => {
    const parsed = await cli('--json', 'parse', 'skills');
    const job = JSON.parse(parsed.stdout) as { id: string; status: string; error: { code: string } };
    expect(job).toMatchObject({ status: 'failed', error: { code: 'UNAVAILABLE' } });
    expect(parsed.code, parsed.stderr).toBe(1);

    const resumed = await cli('--json', 'jobs', 'resume', job.id);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ id: job.id, status: 'failed' });
    expect(resumed.code, resumed.stderr).toBe(1);

    // Text mode says the same with the same status.
    const text = await cli('jobs', 'resume', job.id);
    expect(text.stderr).toMatch(/error UNAVAILABLE: .*500/);
    expect(text.code).toBe(1);

    // The skill the job stopped at says why, with the hint for a failed endpoint.
    const shown = await cli('states', 'show', 'one');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/last parse attempt failed .*\(500\).* The endpoint failed; retry later\./);
  }, 60_000);

  it('llm test --json exits 1 when the endpoint fails, as text mode does', async () => {
    const report = await cli('--json', 'llm', 'test');
    expect(JSON.parse(report.stdout)).toMatchObject({ ok: false, message: expect.stringContaining('500') });
    expect(report.code, report.stderr).toBe(1);
  }, 30_000);
});
