// The audit in the Library list: each skill's worst unsuppressed severity as library.list computes it in SQL agrees
// with audit.skill's reading of the suppressions, the audit filters pick the skills they say, and a suppression or
// its removal shows in the list at once.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { SkillSummary } from '../../src/shared/api';
import { severityRank, type Severity } from '../../src/shared/api/audit';

const rank = (s: Severity | null | undefined) => (s ? severityRank(s) : -1);
let dir: string;
let core: Core;

async function allSkills(filters: Record<string, unknown> = {}): Promise<SkillSummary[]> {
  const out: SkillSummary[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await core['library.list']({ ...filters, limit: 500, offset });
    out.push(...page.items);
    if (page.items.length < 500) return out;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-audit-list-'));
  cpSync(path.resolve('test/fixtures/audit-corpus'), path.join(dir, 'corpus'), { recursive: true });
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  for (const kind of ['malicious', 'benign']) {
    const job = await core['library.import']({ path: path.join(dir, 'corpus', kind) });
    expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  }
}, 180_000);

afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the audit column and filter of library.list', () => {
  it('gives each skill the worst unsuppressed severity audit.skill gives, and when it was audited', async () => {
    const skills = await allSkills();
    expect(skills.length).toBeGreaterThan(60);
    for (const s of skills) {
      const a = await core['audit.skill']({ skillId: s.id });
      expect(s.auditWorst, s.name).toBe(a.worst);
      expect(s.auditedAt, s.name).toBe(a.auditedAt);
    }
    expect(skills.some((s) => s.auditWorst === 'critical')).toBe(true);
  });

  it('filters by severity at least, clean and never audited, and the counts add up', async () => {
    const skills = await allSkills();
    for (const min of ['low', 'medium', 'high', 'critical'] as const) {
      const page = await core['library.list']({ auditAtLeast: min, limit: 500 });
      const expected = skills.filter((s) => rank(s.auditWorst) >= severityRank(min)).map((s) => s.id);
      expect(page.items.map((s) => s.id).sort(), min).toEqual(expected.sort());
      expect(page.total).toBe(expected.length);
    }
    const clean = await core['library.list']({ auditState: 'clean', limit: 500 });
    expect(clean.items.every((s) => rank(s.auditWorst) <= 0 && s.auditedAt !== null)).toBe(true);
    const low = await core['library.list']({ auditAtLeast: 'low', limit: 1 });
    expect(clean.total + low.total).toBe(skills.length);
    expect((await core['library.list']({ auditState: 'unaudited', limit: 1 })).total).toBe(0);
    await expect(core['library.list']({ auditAtLeast: 'severe' as never })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('follows a suppression of each scope and its removal', async () => {
    const flagged = (await allSkills({ auditAtLeast: 'critical' }))[0]!;
    const audit = await core['audit.skill']({ skillId: flagged.id });
    const worst = audit.findings.filter((f) => f.suppressed === null && f.severity === 'critical');
    const made = [];
    for (const f of worst)
      made.push(await core['audit.suppress']({ findingId: f.id, scope: 'finding', reason: 'test fixture' }));
    const after = await core['audit.skill']({ skillId: flagged.id });
    const row = (await core['library.list']({ name: flagged.name })).items[0]!;
    expect(row.auditWorst).toBe(after.worst);
    expect(rank(row.auditWorst)).toBeLessThan(severityRank('critical'));
    const stillCritical = await core['library.list']({ auditAtLeast: 'critical', limit: 500 });
    expect(stillCritical.items.some((s) => s.id === flagged.id)).toBe(false);
    for (const s of made) await core['audit.unsuppress']({ suppressionId: s.id });
    expect((await core['library.list']({ name: flagged.name })).items[0]!.auditWorst).toBe('critical');

    // A rule for this skill, and a rule library-wide: the list agrees with audit.skill for every skill.
    for (const scope of ['skill-rule', 'rule'] as const) {
      const s = await core['audit.suppress']({ findingId: worst[0]!.id, scope, reason: 'test fixture' });
      const listed = await allSkills();
      for (const one of listed)
        expect(one.auditWorst, `${scope} ${one.name}`).toBe(
          (await core['audit.skill']({ skillId: one.id })).worst,
        );
      await core['audit.unsuppress']({ suppressionId: s.id });
    }
  });

  it('keeps the worst severity through a delete to the trash and its undo', async () => {
    const flagged = (await allSkills({ auditAtLeast: 'critical' }))[0]!;
    const audit = await core['audit.skill']({ skillId: flagged.id });
    const made = await core['audit.suppress']({
      findingId: audit.findings.find((f) => f.severity === 'critical')!.id,
      scope: 'skill-rule',
      reason: 'test fixture',
    });
    const before = (await core['audit.skill']({ skillId: flagged.id })).worst;
    await core['sources.delete']({ skillIds: [flagged.id] });
    expect((await core['library.list']({ name: flagged.name })).total).toBe(0);
    const { restoredSkillIds } = await core['sources.undoDelete']({});
    const row = (await core['library.list']({ name: flagged.name })).items[0]!;
    expect(restoredSkillIds).toContain(row.id);
    expect(row.auditWorst).toBe(before);
    expect(row.auditWorst).toBe((await core['audit.skill']({ skillId: row.id })).worst);
    await core['audit.unsuppress']({ suppressionId: made.id });
    expect((await core['library.list']({ name: flagged.name })).items[0]!.auditWorst).toBe('critical');
  });
});

describe('a library audited before the worst severities were kept', () => {
  it('gets them from its findings and suppressions when it opens', async () => {
    const own = mkdtempSync(path.join(os.tmpdir(), 'sc-audit-backfill-'));
    try {
      const data = path.join(own, 'data');
      let old = createCore({ dataDir: data, resourcesDir: path.resolve('resources') });
      const job = await old['library.import']({ path: path.join(dir, 'corpus', 'malicious') });
      expect((await old['jobs.wait']({ id: job.id })).status).toBe('done');
      const flagged = (await old['library.list']({ auditAtLeast: 'critical', limit: 1 })).items[0]!;
      const critical = (await old['audit.skill']({ skillId: flagged.id })).findings.find(
        (f) => f.severity === 'critical',
      )!;
      await old['audit.suppress']({ findingId: critical.id, scope: 'finding', reason: 'test fixture' });
      // As the library was before migration 75.
      const db = old.context.db;
      for (const t of db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'audit_worst%'")
        .pluck()
        .all())
        db.exec(`DROP TRIGGER ${String(t)}`);
      db.exec(
        'DROP TABLE audit_worst; DROP INDEX audit_findings_rule; DROP INDEX audit_suppressions_rule; DELETE FROM schema_migrations WHERE id = 75',
      );
      await old.close();

      old = createCore({ dataDir: data, resourcesDir: path.resolve('resources') });
      const listed = (await old['library.list']({ limit: 500 })).items;
      expect(listed.length).toBeGreaterThan(50);
      for (const s of listed)
        expect(s.auditWorst, s.name).toBe((await old['audit.skill']({ skillId: s.id })).worst);
      await old.close();
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});
