// Label sets in the library file: import from JSONL or skill-creator's files, list, read, and edit one item at a time.
import type { LabelImportOutcome, LabelSetInfo } from '../../shared/api/evaluation';
export type { LabelSetInfo };
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import { missingPathError } from '../missing-path';
import type { Db } from '../store/db';
import { validateLabelItem, type LabelItem } from './label-format';
import { parseLabelText } from './label-text';

interface ItemRow {
  item_id: string;
  task: string;
  gold: string;
  groups: string | null;
  avoid: string | null;
  parse: string | null;
  domain: string | null;
}

function toItem(r: ItemRow): LabelItem {
  return {
    id: r.item_id,
    task: r.task,
    gold: JSON.parse(r.gold) as string[],
    ...(r.groups ? { groups: JSON.parse(r.groups) as string[][] } : {}),
    ...(r.avoid ? { avoid: JSON.parse(r.avoid) as string[] } : {}),
    ...(r.parse ? { parse: JSON.parse(r.parse) as LabelItem['parse'] } : {}),
    ...(r.domain !== null ? { domain: r.domain } : {}),
  };
}

function writeItem(db: Db, setId: number, item: LabelItem, position: number, editedAt: string | null): void {
  db.prepare(
    `INSERT INTO label_items (set_id, item_id, position, task, gold, groups, avoid, parse, domain, edited_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (set_id, item_id) DO UPDATE SET task = excluded.task, gold = excluded.gold, groups = excluded.groups,
       avoid = excluded.avoid, parse = excluded.parse, domain = excluded.domain, edited_at = excluded.edited_at`,
  ).run(
    setId,
    item.id,
    position,
    item.task,
    JSON.stringify(item.gold),
    item.groups ? JSON.stringify(item.groups) : null,
    item.avoid ? JSON.stringify(item.avoid) : null,
    item.parse ? JSON.stringify(item.parse) : null,
    item.domain ?? null,
    editedAt,
  );
}

/** Which skill names a skill-creator file can be for: one given, and the folder above `evals/`. */
export interface LabelTextSkill {
  skill?: string;
  folderSkill?: string;
}

/**
 * Imports a label text (JSONL, or skill-creator's evals.json or trigger queries) as a new set, or into an existing set
 * of the same name: new ids are added, and items a person edited are kept as they are (the report lists them);
 * unedited items take the file's version.
 */
export function importLabelSet(
  db: Db,
  req: { name: string; text: string; sourcePath?: string } & LabelTextSkill,
  now: Date,
): LabelImportOutcome {
  const parsed = parseLabelText(req.text, req);
  return storeLabelItems(db, { ...req, ...parsed }, now);
}

function storeLabelItems(
  db: Db,
  req: {
    name: string;
    items: LabelItem[];
    sourcePath?: string;
    format: LabelImportOutcome['format'];
    skill?: string;
  },
  now: Date,
): LabelImportOutcome {
  const name = req.name.trim();
  if (name === '') throw new CuratorError('INVALID_ARGUMENT', 'A label set needs a name');
  const { items } = req;
  const at = now.toISOString();
  return db
    .transaction(() => {
      const existing = db.prepare('SELECT id FROM label_sets WHERE name = ?').pluck().get(name) as
        number | undefined;
      const setId =
        existing ??
        Number(
          db
            .prepare('INSERT INTO label_sets (name, source_path, created_at, updated_at) VALUES (?, ?, ?, ?)')
            .run(name, req.sourcePath ?? null, at, at).lastInsertRowid,
        );
      const edited = new Set(
        db
          .prepare('SELECT item_id FROM label_items WHERE set_id = ? AND edited_at IS NOT NULL')
          .pluck()
          .all(setId) as string[],
      );
      const present = new Set(
        db.prepare('SELECT item_id FROM label_items WHERE set_id = ?').pluck().all(setId) as string[],
      );
      let added = 0;
      let updated = 0;
      const keptEdited: string[] = [];
      items.forEach((item, position) => {
        if (edited.has(item.id)) return keptEdited.push(item.id);
        if (present.has(item.id)) updated++;
        else added++;
        writeItem(db, setId, item, position, null);
      });
      db.prepare(
        'UPDATE label_sets SET updated_at = ?, source_path = coalesce(?, source_path) WHERE id = ?',
      ).run(at, req.sourcePath ?? null, setId);
      return {
        set: getLabelSetInfo(db, setId),
        format: req.format,
        ...(req.skill !== undefined ? { skill: req.skill } : {}),
        existed: existing !== undefined,
        added,
        updated,
        keptEdited,
      };
    })
    .immediate();
}

export function getLabelSetInfo(db: Db, setId: number): LabelSetInfo {
  const row = db
    .prepare(
      `SELECT s.id, s.name, s.source_path AS sourcePath, s.created_at AS createdAt, s.updated_at AS updatedAt,
         (SELECT count(*) FROM label_items i WHERE i.set_id = s.id) AS itemCount
       FROM label_sets s WHERE s.id = ?`,
    )
    .get(setId) as LabelSetInfo | undefined;
  if (!row) throw new CuratorError('NOT_FOUND', `No label set ${setId}`);
  return row;
}

export function listLabelSets(db: Db): LabelSetInfo[] {
  return db
    .prepare(
      `SELECT s.id, s.name, s.source_path AS sourcePath, s.created_at AS createdAt, s.updated_at AS updatedAt,
         (SELECT count(*) FROM label_items i WHERE i.set_id = s.id) AS itemCount
       FROM label_sets s ORDER BY s.name`,
    )
    .all() as LabelSetInfo[];
}

/** A set by id, or by name when `ref` is not a number. */
export function findLabelSet(db: Db, ref: number | string): LabelSetInfo {
  if (typeof ref === 'number' || /^\d+$/.test(ref)) return getLabelSetInfo(db, Number(ref));
  const id = db.prepare('SELECT id FROM label_sets WHERE name = ?').pluck().get(ref) as number | undefined;
  if (id === undefined) throw new CuratorError('NOT_FOUND', `No label set named ${ref}`);
  return getLabelSetInfo(db, id);
}

export function getLabelItems(db: Db, setId: number): LabelItem[] {
  getLabelSetInfo(db, setId);
  const rows = db
    .prepare('SELECT * FROM label_items WHERE set_id = ? ORDER BY position, item_id')
    .all(setId) as ItemRow[];
  return rows.map(toItem);
}

/** Adds or changes one item by hand; the item is marked edited so a re-import keeps it. */
export function saveLabelItem(db: Db, setId: number, value: unknown, now: Date): LabelItem {
  const item = validateLabelItem(value);
  getLabelSetInfo(db, setId);
  const position =
    (db
      .prepare('SELECT position FROM label_items WHERE set_id = ? AND item_id = ?')
      .pluck()
      .get(setId, item.id) as number | undefined) ??
    ((db.prepare('SELECT max(position) FROM label_items WHERE set_id = ?').pluck().get(setId) as
      number | null) ?? -1) + 1;
  db.transaction(() => {
    writeItem(db, setId, item, position, now.toISOString());
    db.prepare('UPDATE label_sets SET updated_at = ? WHERE id = ?').run(now.toISOString(), setId);
  }).immediate();
  return item;
}

export function deleteLabelItem(db: Db, setId: number, itemId: string): void {
  const info = db.prepare('DELETE FROM label_items WHERE set_id = ? AND item_id = ?').run(setId, itemId);
  if (info.changes === 0) throw new CuratorError('NOT_FOUND', `No item ${itemId} in label set ${setId}`);
}

const maxLabelFileBytes = 64 * 1024 * 1024;

/**
 * Imports a label file in any format it is in. The set is named after the file unless a name is given; a
 * skill-creator file's name gets its skill in front (every skill's file is `evals/evals.json`).
 */
export async function importLabelFile(
  db: Db,
  req: { path: string; name?: string; skill?: string },
  now: Date,
): Promise<LabelImportOutcome> {
  const file = path.resolve(req.path);
  const stat = await fsp.stat(file).catch(() => null);
  if (!stat) throw missingPathError(`No label file at ${file}`, req.path);
  if (!stat.isFile()) throw new CuratorError('NOT_FOUND', `No label file at ${file}`);
  if (stat.size > maxLabelFileBytes)
    throw new CuratorError('TOO_LARGE', `${file} is over ${maxLabelFileBytes} bytes`);
  const text = await fsp.readFile(file, 'utf8');
  const folder = path.dirname(file);
  const parsed = parseLabelText(text, {
    skill: req.skill,
    ...(path.basename(folder) === 'evals' ? { folderSkill: path.basename(path.dirname(folder)) } : {}),
  });
  const base = path.basename(file).replace(parsed.format === 'jsonl' ? /\.jsonl$/i : /\.json$/i, '');
  const name =
    req.name ??
    (parsed.skill === undefined || base.startsWith(parsed.skill) ? base : `${parsed.skill}-${base}`);
  return storeLabelItems(db, { name, sourcePath: file, ...parsed }, now);
}
