// The importer's removals: the skills a re-imported source no longer has go to the trash as one delete, so `undo`
// brings them back with their states and history, and the report names them.
import { dropPendingAt, pendingConflictPlaces } from '../store/conflicts-repo';
import type { Db } from '../store/db';
import { skillsOfSourceNotIn, type SkillLocationRow } from '../store/skills-repo';
import { findSource } from '../store/sources-repo';
import { nameList } from '../../shared/name-list';
import { recordTrashedSkills, reviewedStatus, trashSkill, type TrashedSkill } from '../sources/trash';
import type { ImportReportWriter } from './import-report';
import type { LibraryDeps } from './types';

/**
 * Removes the skills the source no longer has through the trash, as one delete: `undo` brings them back with their
 * states and history. Those whose states a curator edited or verified come first in the report and are flagged.
 */
export function removeMissing(
  deps: LibraryDeps,
  report: ImportReportWriter,
  sourceId: number,
  seen: Set<string>,
): void {
  const { db } = deps;
  const gone = reviewedFirst(db, skillsOfSourceNotIn(db, sourceId, seen));
  if (gone.length > 0) trashGone(deps, report, sourceId, gone);
  for (const c of pendingConflictPlaces(db, sourceId)) {
    if (!seen.has(c.relPath)) dropPendingAt(db, sourceId, c.relPath);
  }
}

type GoneSkill = SkillLocationRow & { reviewStatus: 'edited' | 'verified' | null };

function reviewedFirst(db: Db, rows: SkillLocationRow[]): GoneSkill[] {
  const gone = rows.map((row) => ({ ...row, reviewStatus: reviewedStatus(db, row.id) }));
  return [...gone.filter((g) => g.reviewStatus), ...gone.filter((g) => !g.reviewStatus)];
}

function trashGone(deps: LibraryDeps, report: ImportReportWriter, sourceId: number, gone: GoneSkill[]): void {
  const { db, clock } = deps;
  const sourceLabel = findSource(db, sourceId)?.label ?? `source ${sourceId}`;
  const take = (row: GoneSkill, trashed: TrashedSkill[]) => {
    const { name, relPath, reviewStatus } = row;
    report.push('removed', reviewStatus ? { name, relPath, reviewStatus } : { name, relPath });
    // Last: a skill whose report line failed is not in the trash's payload.
    trashed.push(trashSkill(db, row.id));
  };
  const record = (trashed: TrashedSkill[]) => {
    if (trashed.length === 0) return;
    const label =
      trashed.length === 1
        ? `${String(trashed[0]!.skill.name)}, gone from ${sourceLabel}`
        : `${nameList(trashed.map((t) => String(t.skill.name)))} gone from ${sourceLabel}`;
    const { evicted } = recordTrashedSkills(db, trashed, label, clock().toISOString());
    report.report.removedToTrash = true;
    if (evicted.length > 0)
      report.report.trashEvicted = evicted.map(({ label, deletedAt }) => ({ label, deletedAt }));
  };
  // One transaction, no savepoint per skill (see writeBatch); should it fail, a savepoint per skill.
  const mark = report.mark();
  try {
    db.transaction(() => {
      const trashed: TrashedSkill[] = [];
      for (const row of gone) take(row, trashed);
      record(trashed);
    }).immediate();
    return;
  } catch {
    report.restore(mark);
  }
  try {
    db.transaction(() => {
      const trashed: TrashedSkill[] = [];
      for (const row of gone) {
        const before = report.mark();
        try {
          db.transaction(() => take(row, trashed))();
        } catch (error) {
          // The skill stays; the report (stored below) still says what was done.
          report.restore(before);
          deps.logger.warn('a skill the source no longer has could not be removed', {
            relPath: row.relPath,
            error: String(error),
          });
        }
      }
      record(trashed);
    }).immediate();
  } catch (error) {
    report.restore(mark);
    deps.logger.warn('the skills the source no longer has could not be moved to the trash; they stay', {
      skills: gone.length,
      error: String(error),
    });
  }
}
