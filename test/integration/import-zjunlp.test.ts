// The real 633-package zjunlp set: every package is imported or rejected with a reason, and a re-import changes nothing.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSource, latestImportReport, listSkills } from '../../src/core/skills/index';
import type { ImportReport } from '../../src/core/skills/types';
import { requireOrSkip } from '../fixtures/require-or-skip';
import { tempLibrary, testJob, zjunlpDir, type TempLibrary } from '../fixtures/skills/library-fixture';

function countSkillMd(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && e.name !== 'node_modules' && e.name !== '.git')
      n += countSkillMd(path.join(dir, e.name));
    else if (e.name === 'SKILL.md' && statSync(path.join(dir, e.name)).isFile()) n++;
  }
  return n;
}

describe.runIf(
  requireOrSkip(
    existsSync(zjunlpDir),
    `no zjunlp skill set at ${zjunlpDir} (the shared data folder ../shared/data)`,
  ),
)('zjunlp skills', () => {
  let lib: TempLibrary;
  let first: ImportReport;
  beforeAll(async () => {
    lib = tempLibrary();
    // Every line of the report, as the library keeps it (the import's result lists the first 100 of each list).
    const { sourceId } = await importSource(lib.deps, { path: zjunlpDir }, testJob());
    first = latestImportReport(lib.db, sourceId)!;
  });
  afterAll(() => lib.close());

  it('accounts for every package: imported, deduplicated, in conflict, or rejected with a reason', () => {
    const packages = countSkillMd(zjunlpDir);
    expect(packages).toBe(633);
    expect(first.total).toBe(packages);
    const accounted =
      first.added.length + first.duplicates.length + first.rejected.length + first.conflicts.length;
    expect(accounted).toBe(packages);
    for (const r of first.rejected) {
      expect(r.issues.length).toBeGreaterThan(0);
      for (const issue of r.issues) {
        expect(issue.rule).toMatch(/^[a-z-]+$/);
        expect(issue.file).toBe(r.file);
        expect(issue.message.length).toBeGreaterThan(10);
      }
    }
    expect(listSkills(lib.db).total).toBe(first.added.length);
    // The report's "with warnings" are the skills it wrote with warnings: what the Library's filter finds.
    expect(first.duplicates.length + first.conflicts.length).toBeGreaterThan(0);
    expect(first.warnings.length).toBe(listSkills(lib.db, { hasWarnings: true }).total);
  });

  it('names the skills whose name differs from their folder, with both names', () => {
    const mismatched = first.rejected.filter((r) => r.issues.some((i) => i.rule === 'name-matches-folder'));
    // The issue expected two; the set has 77 (11 of them also break the name format, e.g. "Agent Development").
    expect(mismatched).toHaveLength(77);
    expect(mismatched.filter((r) => r.issues.some((i) => i.rule === 'name-format'))).toHaveLength(11);
    const langchain = mismatched.find((r) => r.relPath.endsWith('/agents-langchain'));
    expect(langchain!.issues.find((i) => i.rule === 'name-matches-folder')!.message).toBe(
      '"name" is "langchain" but its folder is "agents-langchain"; the two must be equal',
    );
    expect(langchain!.issues[0]!.line).toBe(2);
  });

  it('re-importing reports every stored skill unchanged and nothing added, updated or removed', async () => {
    const { sourceId } = await importSource(lib.deps, { path: zjunlpDir }, testJob());
    const again = latestImportReport(lib.db, sourceId)!;
    expect(again.unchanged).toHaveLength(first.added.length);
    expect([again.added, again.updated, again.removed]).toEqual([[], [], []]);
    expect(again.conflicts.map((c) => c.id)).toEqual(first.conflicts.map((c) => c.id));
    expect(again.rejected.length).toBe(first.rejected.length);
  });
});
