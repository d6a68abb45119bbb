// Deletes skills, or a source with all its skills, keeping their rows (files, states, state history) in the trash so a
// delete can be undone: the last one (undo) or any one still kept (restore). The trash keeps the last 20 deletes, and
// past those every delete that holds states a curator edited or verified, until someone empties it: a daily re-import
// that removes skills must not push a curator's work out. Vectors and scores are derived and are rebuilt by
// `index build`, not kept.
import type { DeletePreview, DeletedInfo } from '../../shared/api';
import { CuratorError } from '../../shared/errors';
import { nameList } from '../../shared/name-list';
import { trashKept } from '../../shared/trash-words';
import type { Db } from '../store/db';
import { deleteSkill, resumeIndexing, skillsOfSource } from '../store/skills-repo';
import { findSource } from '../store/sources-repo';
import { packText } from '../store/text-packing';

type Row = Record<string, unknown>;

export interface TrashedSkill {
  skill: Row;
  children: Record<string, Row[]>;
}

interface TrashPayload {
  source: Row | null;
  sourceRows: Record<string, Row[]>;
  skills: TrashedSkill[];
}

/** Tables whose rows belong to one skill and are restored with it (those that exist in this library). */
const skillChildTables = [
  'skill_files',
  'skill_states',
  'state_history',
  'parse_attempts',
  'skill_changes',
  'skill_tags',
  'audit_state',
  'audit_findings',
  'audit_suppressions',
  'audit_reviews',
];
/** Rows that belong to a source and are restored with it. */
const sourceChildTables = ['git_sources', 'source_watches'];
export { trashKept } from '../../shared/trash-words';

export interface DeleteTarget {
  skillIds?: number[];
  sourceId?: number;
}

export function previewDelete(db: Db, target: DeleteTarget): DeletePreview {
  const { ids, sourceLabel } = resolveTarget(db, target);
  const rows = ids.map(
    (id) => db.prepare('SELECT name FROM skills WHERE id = ?').get(id) as { name: string },
  );
  const reviewed = ids.filter((id) => reviewedStatus(db, id) !== null).length;
  return { skills: ids.length, reviewed, names: rows.map((r) => r.name), sourceLabel };
}

/** A delete as recorded, with the older deletes it pushed out of the trash (they can no longer be restored). */
export type RecordedDelete = DeletedInfo & { evicted: DeletedInfo[] };

export function deleteToTrash(db: Db, target: DeleteTarget, now: string): RecordedDelete {
  return db
    .transaction((): RecordedDelete => {
      const { ids, sourceLabel } = resolveTarget(db, target);
      const payload: TrashPayload = {
        source:
          target.sourceId !== undefined
            ? (db.prepare('SELECT * FROM sources WHERE id = ?').get(target.sourceId) as Row)
            : null,
        sourceRows: {},
        skills: [],
      };
      if (payload.source) {
        for (const table of existing(db, sourceChildTables))
          payload.sourceRows[table] = db
            .prepare(`SELECT * FROM ${table} WHERE source_id = ?`)
            .all(target.sourceId) as Row[];
      }
      for (const id of ids) payload.skills.push(trashSkill(db, id));
      if (payload.source) db.prepare('DELETE FROM sources WHERE id = ?').run(target.sourceId);
      const label =
        sourceLabel !== null
          ? `source ${sourceLabel}`
          : nameList(payload.skills.map((s) => String(s.skill.name)));
      return recordDelete(db, payload, label, now);
    })
    .immediate();
}

/** The review status of a skill whose states a person edited or verified; null for any other. */
export function reviewedStatus(db: Db, skillId: number): 'edited' | 'verified' | null {
  const st = db.prepare('SELECT status FROM skill_states WHERE skill_id = ?').get(skillId) as
    { status: string } | undefined;
  return st?.status === 'edited' || st?.status === 'verified' ? st.status : null;
}

/**
 * Deletes one skill inside the caller's transaction and returns what the trash keeps of it; `recordTrashedSkills`
 * then makes the skills so taken one delete that `undo` restores (the importer removes skills this way).
 */
export function trashSkill(db: Db, id: number): TrashedSkill {
  const skill = trashedSkillColumns(db.prepare('SELECT * FROM skills WHERE id = ?').get(id) as Row);
  const children: Record<string, Row[]> = {};
  for (const table of existing(db, skillChildTables))
    children[table] = db.prepare(`SELECT * FROM ${table} WHERE skill_id = ?`).all(id) as Row[];
  deleteSkill(db, id);
  return { skill, children };
}

export function recordTrashedSkills(
  db: Db,
  skills: TrashedSkill[],
  label: string,
  now: string,
): RecordedDelete {
  return recordDelete(db, { source: null, sourceRows: {}, skills }, label, now);
}

function recordDelete(db: Db, payload: TrashPayload, label: string, now: string): RecordedDelete {
  const reviewed = payload.skills.filter((s) =>
    (s.children.skill_states ?? []).some((st) => st.status === 'edited' || st.status === 'verified'),
  ).length;
  const info = db
    .prepare(
      `INSERT INTO deleted_items (kind, label, skill_count, reviewed_count, payload, deleted_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(
      payload.source ? 'source' : 'skills',
      label,
      payload.skills.length,
      reviewed,
      JSON.stringify(payload),
      now,
    );
  // A restored delete's rows are back in the library; one not restored goes only if it holds no reviewed states.
  const past = `id NOT IN (SELECT id FROM deleted_items ORDER BY id DESC LIMIT ?)
       AND (reviewed_count = 0 OR restored_at IS NOT NULL)`;
  // Those not restored are lost for good: the caller says so.
  const evicted = (
    db
      .prepare(
        `SELECT ${deletedColumns} FROM deleted_items WHERE ${past} AND restored_at IS NULL ORDER BY id`,
      )
      .all(trashKept) as DeletedInfo[]
  ).map((d) => named(db, d));
  db.prepare(`DELETE FROM deleted_items WHERE ${past}`).run(trashKept);
  return { ...findDeleted(db, Number(info.lastInsertRowid))!, evicted };
}

export function lastDeleted(db: Db): DeletedInfo | null {
  const row = db
    .prepare('SELECT id FROM deleted_items WHERE restored_at IS NULL ORDER BY id DESC LIMIT 1')
    .get() as { id: number } | undefined;
  return row ? findDeleted(db, row.id) : null;
}

/** The deletes the trash keeps that are not restored yet, newest first. */
export function listTrash(db: Db): DeletedInfo[] {
  return (
    db
      .prepare(`SELECT ${deletedColumns} FROM deleted_items WHERE restored_at IS NULL ORDER BY id DESC`)
      .all() as DeletedInfo[]
  ).map((d) => named(db, d));
}

/**
 * A delete of several skills recorded before its label named them ("2 skills", "3 skills gone from X") says their
 * names, as one recorded now does.
 */
function named(db: Db, d: DeletedInfo): DeletedInfo {
  const counted = /^\d+ skills\b/;
  if (d.kind !== 'skills' || !counted.test(d.label)) return d;
  const names = payloadNames(db, d.id).map((r) => r.name);
  return names.length === 0 ? d : { ...d, label: d.label.replace(counted, nameList(names)) };
}

/** The skills' names a delete's payload holds, in its order: the one delete `id`, or every one still in the trash. */
function payloadNames(db: Db, id?: number): { id: number; name: string }[] {
  return (
    db
      .prepare(
        `SELECT d.id AS id, json_extract(s.value, '$.skill.name') AS name
         FROM deleted_items AS d, json_each(d.payload, '$.skills') AS s
         WHERE ${id === undefined ? 'd.restored_at IS NULL' : 'd.id = ?'} ORDER BY d.id DESC, s.key`,
      )
      .all(...(id === undefined ? [] : [id])) as { id: number; name: unknown }[]
  ).map((r) => ({ id: r.id, name: String(r.name) }));
}

/** Each skill name the trash holds, with the newest delete (still restorable) that holds it. */
export function trashedSkillNames(db: Db): Map<string, number> {
  const newest = new Map<string, number>();
  for (const r of payloadNames(db)) if (!newest.has(r.name)) newest.set(r.name, r.id);
  return newest;
}

/** Deletes for good one delete of the trash, or all of them; returns how many skills went with them. */
export function emptyTrash(db: Db, id?: number): { deletes: number; skills: number; reviewed: number } {
  return db
    .transaction(() => {
      const where = id === undefined ? 'restored_at IS NULL' : 'id = ? AND restored_at IS NULL';
      const args = id === undefined ? [] : [id];
      const gone = db
        .prepare(
          `SELECT count(*) AS deletes, total(skill_count) AS skills, total(reviewed_count) AS reviewed
           FROM deleted_items WHERE ${where}`,
        )
        .get(...args) as { deletes: number; skills: number; reviewed: number };
      if (id !== undefined && gone.deletes === 0) throw notInTrash(db, id);
      db.prepare(`DELETE FROM deleted_items WHERE ${where}`).run(...args);
      return gone;
    })
    .immediate();
}

/** Restores the newest delete not yet undone. Skills get their old ids back where those are still free. */
export function undoLastDelete(db: Db, now: string): DeletedInfo & { restoredSkillIds: number[] } {
  const last = lastDeleted(db);
  if (!last) throw new CuratorError('NOT_FOUND', 'Nothing to undo: no delete is waiting to be undone');
  return restoreDeleted(db, last.id, now);
}

function notInTrash(db: Db, id: number): CuratorError {
  const row = findDeleted(db, id);
  return new CuratorError(
    'NOT_FOUND',
    row?.restoredAt
      ? `Delete ${id} (${row.label}) was restored on ${row.restoredAt}`
      : `No delete ${id} in the trash (the trash lists what it keeps)`,
  );
}

/**
 * Restores one delete of the trash, whichever it is. Skills get their old ids back where those are still free; a
 * skill whose place holds another skill now, or whose source is gone, stops it with the reason.
 */
export function restoreDeleted(
  db: Db,
  id: number,
  now: string,
): DeletedInfo & { restoredSkillIds: number[] } {
  return db
    .transaction(() => {
      const last = findDeleted(db, id);
      if (!last || last.restoredAt) throw notInTrash(db, id);
      const { payload } = db.prepare('SELECT payload FROM deleted_items WHERE id = ?').get(last.id) as {
        payload: string;
      };
      const trash = JSON.parse(payload) as TrashPayload;
      let sourceId: number | null = null;
      if (trash.source) {
        const taken = db.prepare('SELECT id FROM sources WHERE uri = ?').get(trash.source.uri) as
          { id: number } | undefined;
        if (taken) {
          throw new CuratorError(
            'CONFLICT',
            `Cannot undo: ${String(trash.source.uri)} was imported again since (source ${taken.id}); delete that one first`,
          );
        }
        sourceId = insertRow(db, 'sources', trash.source);
        for (const [table, rows] of Object.entries(trash.sourceRows))
          for (const row of rows) insertRow(db, table, { ...row, source_id: sourceId }, false);
      }
      const restoredSkillIds: number[] = [];
      for (const { skill, children } of trash.skills) {
        const owner = sourceId ?? Number(skill.source_id);
        if (!findSource(db, owner)) {
          throw new CuratorError(
            'CONFLICT',
            `Cannot undo: the source of ${String(skill.name)} was deleted since`,
          );
        }
        const clash = db
          .prepare('SELECT id FROM skills WHERE source_id = ? AND rel_path = ?')
          .get(owner, skill.rel_path) as { id: number } | undefined;
        if (clash) {
          throw new CuratorError(
            'CONFLICT',
            `Cannot undo: ${String(skill.name)}'s place (${String(skill.rel_path) || 'the source itself'}) holds skill ${clash.id} now`,
          );
        }
        // Written paused: the full-text index takes it in once, when its files are back.
        const id = insertRow(db, 'skills', {
          ...storedSkillColumns(skill),
          source_id: owner,
          index_paused: 1,
        });
        for (const [table, rows] of Object.entries(children)) {
          for (const row of rows)
            insertRow(
              db,
              table,
              { ...row, skill_id: id },
              table === 'state_history' || table === 'skill_changes' ? true : false,
            );
        }
        resumeIndexing(db, id);
        restoredSkillIds.push(id);
      }
      db.prepare('UPDATE deleted_items SET restored_at = ? WHERE id = ?').run(now, last.id);
      return { ...findDeleted(db, last.id)!, restoredSkillIds };
    })
    .immediate();
}

function resolveTarget(db: Db, target: DeleteTarget): { ids: number[]; sourceLabel: string | null } {
  if (target.sourceId !== undefined) {
    const source = findSource(db, target.sourceId);
    if (!source) throw new CuratorError('NOT_FOUND', `No source ${target.sourceId}`);
    return { ids: skillsOfSource(db, target.sourceId).map((s) => s.id), sourceLabel: source.label };
  }
  const ids = [...new Set(target.skillIds ?? [])];
  if (ids.length === 0)
    throw new CuratorError('INVALID_ARGUMENT', 'Say which skills to delete (ids) or which source');
  for (const id of ids) {
    if (!db.prepare('SELECT 1 FROM skills WHERE id = ?').get(id))
      throw new CuratorError('NOT_FOUND', `No skill ${id}`);
  }
  return { ids, sourceLabel: null };
}

const deletedColumns = `id, kind, label, skill_count AS skillCount, reviewed_count AS reviewedCount,
  deleted_at AS deletedAt, restored_at AS restoredAt`;

function findDeleted(db: Db, id: number): DeletedInfo | null {
  const row = db.prepare(`SELECT ${deletedColumns} FROM deleted_items WHERE id = ?`).get(id) as
    DeletedInfo | undefined;
  return row ? named(db, row) : null;
}

function existing(db: Db, tables: string[]): string[] {
  return tables.filter((t) =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t),
  );
}

/** Inserts a row as it was; its `id` is kept when still free (or dropped when `keepId` is false or it is taken). */
function insertRow(db: Db, table: string, row: Row, keepId = true): number {
  const values = { ...row };
  if ('id' in values && (!keepId || db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(values.id)))
    delete values.id;
  const columns = Object.keys(values);
  const info = db
    .prepare(
      `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    )
    .run(...columns.map((c) => values[c] as never));
  return Number(info.lastInsertRowid);
}

/** A skill row as the trash keeps it (JSON): its full text plain, as the skills table held it before migration 034. */
function trashedSkillColumns(skill: Row): Row {
  const { body: _body, full_text_stored: _stored, ...kept } = skill;
  return kept;
}

/**
 * A trashed skill row as the skills table stores it now: without the generated `body` and `full_text`, its full text
 * packed, and a payload written before migration 005 (whose `body` was stored) gives its body to body_own.
 */
function storedSkillColumns(skill: Row): Row {
  const { body, full_text, ...stored } = skill;
  const row = { ...stored, full_text_stored: packText(String(full_text)) };
  if (!('body_own' in stored)) return { ...row, body_own: body, body_start: null };
  return row;
}
