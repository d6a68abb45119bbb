// The importer's writes: a batch of loaded skills in one transaction (skill by skill should it fail), and what placing
// one skill did recorded in the report. Removing what a source no longer has is in import-removals.ts.
import { deferIndexing } from '../store/deferred-indexing';
import { storedWarnings } from '../store/skills-repo';
import type { Loaded } from './import-batches';
import type { ImportReportWriter } from './import-report';
import { placeSkill } from './place-skill';
import type { LibraryDeps, OnConflict } from './types';

/**
 * Writes a batch in one transaction. No savepoint per skill here: SQLite's FTS5 writes its pending text index out as a
 * new segment at every savepoint, which made one index segment (and its merges) per skill. A skill the library cannot
 * store throws, the whole batch rolls back, and the batch is written again one transaction per skill, where that skill
 * alone is rolled back and rejected: per-skill atomicity either way.
 */
export function writeBatch(
  deps: LibraryDeps,
  sourceId: number,
  batch: Loaded[],
  onConflict: OnConflict,
  report: ImportReportWriter,
): void {
  const mark = report.mark();
  try {
    deps.db
      .transaction(() =>
        // The batch's text is indexed in one statement at its end (store/deferred-indexing.ts).
        deferIndexing(deps.db, () => {
          for (const loaded of batch) settle(deps, sourceId, loaded, onConflict, report, 'batch');
        }),
      )
      .immediate();
  } catch (error) {
    deps.logger.warn('a batch of skills could not be committed; writing them one by one', {
      error: String(error),
    });
    report.restore(mark);
    for (const loaded of batch)
      deps.db.transaction(() => settle(deps, sourceId, loaded, onConflict, report, 'alone')).immediate();
  }
}

/**
 * Places one loaded skill (inside the caller's transaction) and records what happened in the report. In a batch, a
 * failure to store it propagates (the batch is redone skill by skill); alone, it is rolled back and rejected.
 */
function settle(
  deps: LibraryDeps,
  sourceId: number,
  { item, result }: Loaded,
  onConflict: OnConflict,
  report: ImportReportWriter,
  mode: 'batch' | 'alone',
): void {
  const { db, clock } = deps;
  const reject = (rule: string, message: string) =>
    report.push('rejected', {
      relPath: item.relPath,
      file: item.file,
      issues: [{ severity: 'error', rule, message, file: item.file }],
    });
  if (item.type === 'rejection') {
    report.push('rejected', { relPath: item.relPath, file: item.file, issues: item.issues });
    return;
  }
  if (result === null) return;
  if (result.ok === 'unchanged') {
    const ref = { name: result.name, relPath: item.relPath };
    if (result.warned)
      report.push('warnings', { ...ref, issues: storedWarnings(db, result.skillId, item.line) });
    return void report.push('unchanged', ref);
  }
  if (result.ok === 'unreadable')
    return void reject('unreadable', `cannot read the package: ${result.message}`);
  if (!result.ok) {
    report.push('rejected', { relPath: item.relPath, file: item.file, issues: result.issues });
    return;
  }
  const skill = result.skill;
  const ref = { name: skill.name, relPath: skill.relPath };
  const place = () => placeSkill(db, sourceId, skill, onConflict, clock().toISOString());
  let placed;
  if (mode === 'batch') placed = place();
  else {
    try {
      // Nested in the skill's own transaction, this is a savepoint: a failure undoes this skill only.
      placed = db.transaction(place)();
    } catch (error) {
      deps.logger.warn('a skill could not be stored', { relPath: item.relPath, error: String(error) });
      return void reject(
        'store-failed',
        `the library could not store this skill: ${(error as Error).message}`,
      );
    }
  }
  // Warnings of the skills this import wrote: a duplicate or a conflict left open is not in the library, and the
  // report's count matches what the Library's "with warnings" filter finds.
  const written = placed.kind === 'conflict' ? placed.written : placed.kind !== 'duplicate';
  if (written && skill.warnings.length > 0) report.push('warnings', { ...ref, issues: skill.warnings });
  if (placed.kind === 'duplicate')
    report.push('duplicates', { ...ref, existingSkillId: placed.existingSkillId });
  else if (placed.kind === 'conflict') {
    report.push('conflicts', { ...ref, id: placed.conflictId, existingSkillId: placed.existingSkillId });
    if (placed.written) report.push(placed.written, ref);
  } else report.push(placed.kind, ref);
}
