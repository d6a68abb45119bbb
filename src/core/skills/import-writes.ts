// The importer's writes: a batch of loaded skills in one transaction (skill by skill should it fail), what placing one
// skill did recorded in the report, and removing the skills a source no longer has.
import { dropPendingAt, pendingConflictPlaces } from '../store/conflicts-repo';
import { deferIndexing } from '../store/deferred-indexing';
import { deleteSkill, skillsOfSourceNotIn, storedWarnings } from '../store/skills-repo';
import { reportLengths, restoreLengths, type Loaded } from './import-batches';
import { placeSkill } from './place-skill';
import type { ImportReport, LibraryDeps, OnConflict, ValidationIssue } from './types';

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
  report: ImportReport,
): void {
  const lengths = reportLengths(report);
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
    restoreLengths(report, lengths);
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
  report: ImportReport,
  mode: 'batch' | 'alone',
): void {
  const { db, clock } = deps;
  const reject = (rule: string, message: string) =>
    report.rejected.push({
      relPath: item.relPath,
      file: item.file,
      issues: [{ severity: 'error', rule, message, file: item.file }],
    });
  if (item.type === 'rejection') {
    report.rejected.push({ relPath: item.relPath, file: item.file, issues: item.issues });
    return;
  }
  if (result === null) return;
  if (result.ok === 'unchanged') {
    const ref = { name: result.name, relPath: item.relPath };
    if (result.warned)
      report.warnings.push({ ...ref, issues: storedWarnings(db, result.skillId, item.line) });
    return void report.unchanged.push(ref);
  }
  if (result.ok === 'unreadable')
    return void reject('unreadable', `cannot read the package: ${result.message}`);
  if (!result.ok) {
    report.rejected.push({ relPath: item.relPath, file: item.file, issues: result.issues });
    return;
  }
  const skill = result.skill;
  const ref = reportRef(skill.name, skill.relPath === item.relPath ? item.relPath : skill.relPath);
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
  if (skill.warnings.length > 0) report.warnings.push({ ...ref, issues: skill.warnings.map(sharedIssue) });
  if (placed.kind === 'duplicate')
    report.duplicates.push({ ...ref, existingSkillId: placed.existingSkillId });
  else if (placed.kind === 'conflict') {
    report.conflicts.push({ ...ref, id: placed.conflictId, existingSkillId: placed.existingSkillId });
    if (placed.written) report[placed.written].push(ref);
  } else report[placed.kind].push(ref);
}

/**
 * A report's line for a skill. A 68k import's report holds every skill until the import ends, and the importer's heap
 * grows with what it holds, so a name the same as its place (most JSONL skills) is one string, not two.
 */
function reportRef(name: string, relPath: string): { name: string; relPath: string } {
  return { name: name === relPath ? relPath : ownCopy(name), relPath };
}

/**
 * A string that holds only its own characters. A name the YAML parser gave is a slice of the front matter's text, and
 * V8 keeps the whole text alive for a slice of 13 or more characters: a 68k folder import's report kept about 700
 * bytes of front matter per skill that way (a third of the importer's live heap).
 */
export function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Issue texts repeat across skills ("\"tools\" is not a key of ..."): the report keeps one copy of each. */
const issueTexts = new Map<string, string>();
const sharedText = (text: string) => {
  const known = issueTexts.get(text);
  if (known !== undefined) return known;
  if (issueTexts.size > 10_000) issueTexts.clear();
  const own = ownCopy(text);
  issueTexts.set(own, own);
  return own;
};

function sharedIssue(issue: ValidationIssue): ValidationIssue {
  return {
    ...issue,
    severity: issue.severity === 'error' ? 'error' : 'warning',
    rule: sharedText(issue.rule),
    message: sharedText(issue.message),
    file: sharedText(issue.file),
  };
}

export function removeMissing(deps: LibraryDeps, report: ImportReport, seen: Set<string>): void {
  const { db } = deps;
  const gone = skillsOfSourceNotIn(db, report.sourceId, seen);
  const removed = (row: (typeof gone)[number]) =>
    report.removed.push({ name: row.name, relPath: row.relPath });
  // One transaction, no savepoint per skill (see writeBatch); should it fail, one transaction per skill.
  try {
    db.transaction(() => gone.forEach((row) => deleteSkill(db, row.id))).immediate();
    gone.forEach(removed);
  } catch {
    for (const row of gone) {
      try {
        db.transaction(() => deleteSkill(db, row.id)).immediate();
        removed(row);
      } catch (error) {
        // The skill stays; the report (stored below) still says what was done.
        deps.logger.warn('a skill the source no longer has could not be removed', {
          relPath: row.relPath,
          error: String(error),
        });
      }
    }
  }
  for (const c of pendingConflictPlaces(db, report.sourceId)) {
    if (!seen.has(c.relPath)) dropPendingAt(db, report.sourceId, c.relPath);
  }
}
