// Applies an update check's changes to the library, all of them or those the curator picked. Each skill is written
// the way an import writes it (placeSkill, one transaction each). A changed skill keeps its id and its states; when a
// person had edited or verified them, the change is recorded so the skill shows "skill changed since" with its diff.
import type { ApplyResult, UpdateItem } from '../../shared/api';
import { placeSkill, readParsedSkill } from '../skills/place-skill';
import type { ImportReport, LibraryDeps } from '../skills/types';
import type { Db } from '../store/db';
import { findSkillAt } from '../store/skills-repo';
import { insertImportReport } from '../store/import-reports-repo';
import { markImported } from '../store/sources-repo';
import { recordSkillChange } from './sync-store';
import { deleteToTrash, reviewedStatus } from './trash';
import { reviewStatusOf, type UpstreamScan } from './update-check';

export function applyScan(
  deps: LibraryDeps,
  source: { id: number; uri: string },
  scan: UpstreamScan,
  picked: ReadonlySet<string> | null,
  commit: string | null,
): ApplyResult {
  const { db, clock } = deps;
  const now = clock().toISOString();
  const wanted = (relPath: string) => picked === null || picked.has(relPath);
  const result: ApplyResult = {
    sourceId: source.id,
    added: [],
    updated: [],
    removed: [],
    kept: [],
    conflicts: [],
    duplicates: [],
    remaining: 0,
    commit,
  };
  for (const item of [...scan.added, ...scan.changed]) {
    if (!wanted(item.relPath)) {
      result.remaining++;
      continue;
    }
    const skill = scan.incoming.get(item.relPath)!;
    db.transaction(() => {
      const here = findSkillAt(db, source.id, item.relPath);
      const before = here ? (readParsedSkill(db, here.id)?.fullText ?? '') : '';
      const status = here ? reviewStatusOf(db, here.id) : null;
      const placed = placeSkill(db, source.id, skill, 'record', now);
      const ref = { name: skill.name, relPath: skill.relPath };
      if (placed.kind === 'added') result.added.push(ref);
      else if (placed.kind === 'updated') {
        result.updated.push(ref);
        if (here && (status === 'edited' || status === 'verified')) {
          recordSkillChange(db, here.id, before, skill.fullText, status, now);
          result.kept.push({ skillId: here.id, name: skill.name, status });
        }
      } else if (placed.kind === 'duplicate')
        result.duplicates.push({ ...ref, existingSkillId: placed.existingSkillId });
      else if (placed.kind === 'conflict') result.conflicts.push({ id: placed.conflictId, ...ref });
    }).immediate();
  }
  const gone = scan.removed.filter((item) => wanted(item.relPath) && item.skillId !== null);
  result.remaining += scan.removed.length - gone.length;
  // Read before they go: whether a curator edited or verified them is in their states.
  const removed = removedLines(db, gone);
  if (gone.length > 0) {
    // Through the trash, so "Undo" brings them back with their states.
    deleteToTrash(db, { skillIds: gone.map((item) => item.skillId!) }, now);
    result.removed.push(...gone.map((item) => ({ name: item.name, relPath: item.relPath })));
  }
  const report: ImportReport = {
    sourceId: source.id,
    sourceUri: source.uri,
    kind: 'folder',
    total:
      scan.added.length + scan.changed.length + scan.removed.length + scan.unchanged + scan.rejected.length,
    added: result.added,
    updated: result.updated,
    unchanged: [],
    removed,
    ...(removed.length > 0
      ? { removedReviewed: removed.filter((r) => r.reviewStatus).length, removedToTrash: true }
      : {}),
    duplicates: result.duplicates,
    rejected: scan.rejected,
    warnings: [],
    conflicts: result.conflicts.map((c) => ({
      ...c,
      existingSkillId: (
        db.prepare('SELECT existing_skill_id AS e FROM import_conflicts WHERE id = ?').get(c.id) as {
          e: number;
        }
      ).e,
    })),
    cancelled: false,
  };
  insertImportReport(db, report, null, now);
  markImported(db, source.id, now);
  return result;
}

/** The report's removed lines as an import writes them: a curator's edited or verified skills first, flagged. */
function removedLines(db: Db, gone: UpdateItem[]): ImportReport['removed'] {
  const lines = gone.map((item) => {
    const reviewStatus = reviewedStatus(db, item.skillId!);
    return { name: item.name, relPath: item.relPath, ...(reviewStatus ? { reviewStatus } : {}) };
  });
  return [...lines.filter((l) => l.reviewStatus), ...lines.filter((l) => !l.reviewStatus)];
}
