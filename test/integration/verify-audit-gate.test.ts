// Verifying asks first when the audit found something: states.verify and states.verifyMany refuse (CONFLICT, naming
// the skill and finding, with the findings in details) a skill with unsuppressed high or critical findings unless the
// request acknowledges them; a low finding or a suppressed one asks nothing; the CLI takes --acknowledge-audit.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { VerifyAuditFinding } from '../../src/shared/api/llm';
import { runCli } from '../fixtures/run-cli';

const corpus = path.resolve('test/fixtures/audit-corpus');
let dir: string;
let core: Core;
let flagged: number;
let low: number;

async function refusal(call: Promise<unknown>) {
  const error = (await call.then(
    () => null,
    (e: unknown) => e,
  )) as { code: string; message: string; details: { auditFindings: VerifyAuditFinding[] } } | null;
  expect(error, 'refused').not.toBeNull();
  return error!;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-verify-audit-'));
  cpSync(path.join(corpus, 'malicious', 'cache-purger'), path.join(dir, 'lib', 'cache-purger'), {
    recursive: true,
  });
  cpSync(path.join(corpus, 'benign', 'ssh-key-setup'), path.join(dir, 'lib', 'ssh-key-setup'), {
    recursive: true,
  });
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  const job = await core['library.import']({ path: path.join(dir, 'lib') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  flagged = (await core['library.get']({ name: 'cache-purger' })).id;
  low = (await core['library.get']({ name: 'ssh-key-setup' })).id;
  for (const skillId of [flagged, low])
    await core['states.edit']({ skillId, precondition: null, completion: 'the caches are cleared' });
}, 120_000);

afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('verifying a skill the audit flagged', () => {
  it('refuses states.verify, naming the skill and its findings, until the request acknowledges them', async () => {
    const error = await refusal(core['states.verify']({ skillId: flagged }));
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toContain(
      'cache-purger (critical SC-DS-DELETE-HOME-OR-ROOT at scripts/purge.sh:14)',
    );
    expect(error.details.auditFindings.map((f) => `${f.severity} ${f.ruleId}`)).toEqual([
      'critical SC-DS-DELETE-HOME-OR-ROOT',
      'high SC-OB-HIDDEN-COMMAND',
    ]);
    expect((await core['states.get']({ skillId: flagged })).status).toBe('edited');
    expect((await core['states.verify']({ skillId: flagged, acknowledgeAudit: true })).status).toBe(
      'verified',
    );
    await core['states.revert']({
      skillId: flagged,
      historyId: (await core['states.history']({ skillId: flagged }))[0]!.id,
    });
    // A low finding asks nothing.
    expect((await core['states.verify']({ skillId: low })).status).toBe('verified');
  });

  it('refuses states.verifyMany as a whole, and lets it through once the findings are suppressed', async () => {
    await core['states.revert']({
      skillId: low,
      historyId: (await core['states.history']({ skillId: low }))[0]!.id,
    });
    const error = await refusal(core['states.verifyMany']({ skillIds: [low, flagged] }));
    expect(error.code).toBe('CONFLICT');
    expect(new Set(error.details.auditFindings.map((f) => f.name))).toEqual(new Set(['cache-purger']));
    for (const id of [low, flagged])
      expect((await core['states.get']({ skillId: id })).status).not.toBe('verified');

    const audit = await core['audit.skill']({ skillId: flagged });
    for (const f of audit.findings.filter((x) => x.severity === 'critical' || x.severity === 'high'))
      await core['audit.suppress']({ findingId: f.id, scope: 'finding', reason: 'a fixture of the test' });
    const result = await core['states.verifyMany']({ skillIds: [low, flagged] });
    expect(result.verified.sort()).toEqual([low, flagged].sort());
  });
});

describe('the CLI states verify', () => {
  it('prints the refusal and verifies with --acknowledge-audit', async () => {
    const data = path.join(dir, 'cli-data');
    expect((await runCli(data, ['import', path.join(dir, 'lib')])).code).toBe(0);
    expect(
      (await runCli(data, ['states', 'edit', 'cache-purger', '--completion', 'the caches are cleared'])).code,
    ).toBe(0);
    const refused = await runCli(data, ['states', 'verify', 'cache-purger']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Not verified');
    expect(refused.stderr).toContain('SC-DS-DELETE-HOME-OR-ROOT');
    expect(refused.stderr).toContain('--acknowledge-audit');
    const done = await runCli(data, ['states', 'verify', 'cache-purger', '--acknowledge-audit']);
    expect(done.code, done.stderr).toBe(0);
  });
});
