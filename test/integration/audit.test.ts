// The audit over our labelled corpus (test/fixtures/audit-corpus), through the real import: what the import's audit
// flags, that benign look-alikes stay quiet, suppressions that hold only on the content they were made on, the gate
// that refuses an install, and the SARIF report's shape.
import { cpSync, mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { ImportReport } from '../../src/shared/api';
import { severityRank, type Severity } from '../../src/shared/api/audit';

const corpus = path.resolve('test/fixtures/audit-corpus');
interface Label {
  skill: string;
  kind: 'malicious' | 'benign';
  category: string;
  difficulty: 'easy' | 'medium' | 'evasive';
  file: string;
}
const labels = JSON.parse(readFileSync(path.join(corpus, 'labels.json'), 'utf8')) as Label[];

let dir: string;
let core: Core;
const reports: ImportReport[] = [];
const ids = new Map<string, number>();

const alarm = (f: { category: string; severity: Severity }, at: Severity) =>
  !['spec', 'routing'].includes(f.category) && severityRank(f.severity) >= severityRank(at);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-audit-'));
  cpSync(corpus, path.join(dir, 'corpus'), { recursive: true, verbatimSymlinks: true });
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  for (const kind of ['malicious', 'benign']) {
    const job = await core['library.import']({ path: path.join(dir, 'corpus', kind) });
    const done = await core['jobs.wait']({ id: job.id });
    expect(done.status).toBe('done');
    reports.push(done.result as ImportReport);
  }
  for (let offset = 0; ; offset += 500) {
    const page = await core['library.list']({ limit: 500, offset });
    for (const s of page.items) ids.set(s.name, s.id);
    if (page.items.length < 500) break;
  }
}, 180_000);

afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the audit of an imported library', () => {
  it('counts the findings in the import report and names the flagged skills', () => {
    const audit = reports[0]!.audit!;
    expect(audit.audited).toBe(ids.size - labels.filter((l) => l.kind === 'benign').length);
    expect(audit.flaggedCount).toBeGreaterThan(40);
    expect(audit.findings.critical).toBeGreaterThan(0);
    expect(reports[1]!.audit!.flaggedCount).toBe(0);
  });

  it('flags every malicious skill it imported, in the file the payload is in for most of them', async () => {
    let inFile = 0;
    const malicious = labels.filter((l) => l.kind === 'malicious' && ids.has(l.skill));
    expect(malicious.length).toBeGreaterThanOrEqual(54);
    for (const l of malicious) {
      const a = await core['audit.skill']({ skillId: ids.get(l.skill)! });
      expect(
        a.findings.some((f) => alarm(f, 'medium')),
        l.skill,
      ).toBe(true);
      if (a.findings.some((f) => alarm(f, 'medium') && f.file === l.file)) inFile++;
    }
    expect(inFile / malicious.length).toBeGreaterThan(0.9);
  });

  it('stays quiet on benign skills that only look suspicious', async () => {
    for (const l of labels.filter((x) => x.kind === 'benign')) {
      const a = await core['audit.skill']({ skillId: ids.get(l.skill)! });
      expect(
        a.findings.filter((f) => alarm(f, 'medium')).map((f) => `${f.ruleId} ${f.excerpt}`),
        l.skill,
      ).toEqual([]);
    }
  });

  it('sees through a command split by a line continuation and one built in variables', async () => {
    const purge = await core['audit.skill']({ skillId: ids.get('cache-purger')! });
    expect(purge.findings.find((f) => f.ruleId === 'SC-DS-DELETE-HOME-OR-ROOT')).toMatchObject({
      severity: 'critical',
      file: 'scripts/purge.sh',
      seenAfter: expect.stringMatching(/variables/),
    });
    expect(purge.findings.some((f) => f.ruleId === 'SC-OB-HIDDEN-COMMAND')).toBe(true);
    const sync = await core['audit.skill']({ skillId: ids.get('dotenv-sync')! });
    expect(
      sync.findings.some((f) => f.ruleId === 'SC-EX-EXFILTRATION-CHAIN' && f.severity === 'critical'),
    ).toBe(true);
  });

  it('keeps a suppression while the file is unchanged, and brings it back for review when it changes', async () => {
    const id = ids.get('json-pretty')!;
    const before = await core['audit.skill']({ skillId: id });
    const worst = before.findings.find((f) => f.severity === before.worst)!;
    await expect(
      core['audit.suppress']({ findingId: worst.id, scope: 'finding', reason: '' }),
    ).rejects.toThrow(/Say why/);
    const s = await core['audit.suppress']({
      findingId: worst.id,
      scope: 'finding',
      reason: 'checked by hand',
    });
    const after = await core['audit.skill']({ skillId: id });
    expect(after.findings.find((f) => f.id === worst.id)!.suppressed).toMatchObject({
      id: s.id,
      reason: 'checked by hand',
    });

    appendFileSync(path.join(dir, 'corpus/malicious/json-pretty', worst.file), '\n# changed\n');
    const job = await core['library.import']({ path: path.join(dir, 'corpus', 'malicious') });
    expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
    const changed = await core['audit.skill']({ skillId: id });
    const again = changed.findings.find((f) => f.ruleId === worst.ruleId && f.excerpt === worst.excerpt)!;
    expect(again.suppressed).toBeNull();
    expect(again.suppressionToReview).toMatchObject({ id: s.id, reason: 'checked by hand' });
  });

  it('refuses to install a skill with a critical finding, naming it, unless the gate is off', async () => {
    const target = path.join(dir, 'agent-skills');
    const req = { skillIds: [ids.get('cache-purger')!, ids.get('ssh-key-setup')!], target, dryRun: true };
    await expect(core['install.run'](req)).rejects.toThrow(
      /audit refuses a skill .*cache-purger \(critical SC-DS-DELETE-HOME-OR-ROOT/,
    );
    await core['settings.update']({ patch: { audit: { gateSeverity: 'off' } } });
    await expect(core['install.run'](req)).resolves.toMatchObject({ dryRun: true });
    await core['settings.update']({ patch: { audit: { gateSeverity: 'critical' } } });
  });

  it('writes SARIF 2.1.0 with the rules it uses and the suppressions as SARIF suppressions', async () => {
    const out = await core['audit.report']({
      format: 'sarif',
      skillIds: [ids.get('json-pretty')!, ids.get('cache-purger')!],
    });
    const sarif = JSON.parse(out.text) as {
      version: string;
      runs: {
        tool: { driver: { name: string; rules: { id: string; shortDescription: { text: string } }[] } };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          locations: unknown[];
          suppressions?: unknown[];
        }[];
      }[];
    };
    expect(sarif.version).toBe('2.1.0');
    const run = sarif.runs[0]!;
    expect(run.tool.driver.rules.length).toBeGreaterThan(0);
    for (const r of run.results) {
      expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
      expect(['error', 'warning', 'note']).toContain(r.level);
      expect(r.locations.length).toBe(1);
    }
    const md = await core['audit.report']({ format: 'md', skillIds: [ids.get('cache-purger')!] });
    expect(md.text).toMatch(/## cache-purger/);
  });
});
