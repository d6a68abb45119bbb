// Undo of one bulk change: each skill gets back exactly what it had before the change, unless it changed again
// since. A later edit is never overwritten: such a skill is left as it is and named with the reason.
import type { BulkUndoResult, BulkUndoSkip } from '../../shared/api/bulk';
import { CuratorError } from '../../shared/errors';
import { nameList } from '../../shared/name-list';
import { skillsWord } from '../../shared/trash-words';
import type { Clock } from '../llm/ports';
import { currentSnapshot, emptySnapshot, writeSnapshot, type StatesSnapshot } from '../states/states-records';
import type { Db } from '../store/db';
import { changedSkills, changeRow, findChange, type ChangeRow, type TagPair } from './bulk-changes';

const actionWords: Record<string, string> = {
  parse: 'parsed',
  'parse-failed': 'parsed (failed)',
  reparse: 're-parsed',
  edit: 'edited',
  verify: 'verified',
  unverify: 'un-verified',
  revert: 'reverted',
};

const minute = (at: string) => at.slice(0, 16).replace('T', ' ');

export function undoChange(db: Db, clock: Clock, id: number): BulkUndoResult {
  return db
    .transaction((): BulkUndoResult => {
      const row = changeRow(db, id);
      const change = findChange(db, id);
      if (row.undone_at !== null)
        throw new CuratorError('CONFLICT', `“${change.label}” was undone on ${minute(row.undone_at)}`);
      if (change.running)
        throw new CuratorError(
          'CONFLICT',
          `The re-parse (job ${row.job_id}) is still running: Undo once it has ended, or cancel it in Jobs first`,
          { jobId: row.job_id },
        );
      const name = (skillId: number) =>
        (db.prepare('SELECT name FROM skills WHERE id = ?').pluck().get(skillId) as string | undefined) ??
        null;
      const done = row.kind.startsWith('tag-') ? undoTags(db, row) : undoStates(db, clock, row);
      const skipped = done.skipped.map((s) => ({ ...s, name: name(s.skillId) }));
      db.prepare('UPDATE bulk_changes SET undone_at = ? WHERE id = ?').run(clock().toISOString(), id);
      return {
        change: findChange(db, id),
        restored: done.restored,
        skipped,
        message: undoWords(done.restored.length, skipped),
      };
    })
    .immediate();
}

type Undone = { restored: number[]; skipped: Omit<BulkUndoSkip, 'name'>[] };

/** Skills the change named that the library no longer holds (their history went with them). */
function deletedSince(db: Db, row: ChangeRow): number[] {
  const named = JSON.parse(row.skill_ids) as number[];
  const exists = db.prepare('SELECT 1 FROM skills WHERE id = ?');
  return named.filter((skillId) => !exists.get(skillId));
}

function undoStates(db: Db, clock: Clock, row: ChangeRow): Undone {
  const out: Undone = {
    restored: [],
    skipped: deletedSince(db, row).map((skillId) => ({ skillId, reason: 'deleted' })),
  };
  const latest = db.prepare(
    'SELECT id, action, at FROM state_history WHERE skill_id = ? ORDER BY id DESC LIMIT 1',
  );
  for (const [skillId, rows] of changedSkills(db, row)) {
    const last = latest.get(skillId) as { id: number; action: string; at: string };
    if (last.id !== rows[rows.length - 1]!.id) {
      const what = actionWords[last.action] ?? last.action;
      out.skipped.push({ skillId, reason: `${what} at ${minute(last.at)}` });
      continue;
    }
    const first = rows[0]!.before;
    const target: StatesSnapshot = first ? (JSON.parse(first) as StatesSnapshot) : emptySnapshot();
    writeSnapshot(db, clock, skillId, target, 'revert', currentSnapshot(db, skillId), {});
    out.restored.push(skillId);
  }
  return out;
}

function undoTags(db: Db, row: ChangeRow): Undone {
  const added = row.kind === 'tag-add';
  const out: Undone = {
    restored: [],
    skipped: deletedSince(db, row).map((skillId) => ({ skillId, reason: 'deleted' })),
  };
  const gone = new Set(out.skipped.map((s) => s.skillId));
  const restored = new Set<number>();
  const undo = db.prepare(
    added
      ? 'DELETE FROM skill_tags WHERE skill_id = ? AND tag = ?'
      : 'INSERT OR IGNORE INTO skill_tags (skill_id, tag) VALUES (?, ?)',
  );
  for (const [skillId, tag] of JSON.parse(row.pairs) as TagPair[]) {
    if (gone.has(skillId)) continue;
    if (undo.run(skillId, tag).changes > 0) restored.add(skillId);
    else out.skipped.push({ skillId, reason: `“${tag}” already ${added ? 'taken off' : 'put back'}` });
  }
  out.restored = [...restored];
  return out;
}

function undoWords(restored: number, skipped: BulkUndoSkip[]): string {
  const back = `${skillsWord(restored)} back as ${restored === 1 ? 'it was' : 'they were'}`;
  if (skipped.length === 0) return back;
  const named = skipped.map((s) => `${s.name ?? `skill ${s.skillId}`} (${s.reason})`);
  const one = skipped.length === 1;
  const why = one ? 'it is because it changed since' : 'they are because they changed since';
  return `${back}; ${skipped.length} left as ${why}: ${nameList(named)}`;
}
