// Triggers that keep the full-text index equal to the skills table, whoever writes it (the importer, trash restore, a
// source deleted with its skills by cascade). The index has external content (the view skills_fts_source), so a row
// leaves it through FTS5's 'delete' command with exactly the values it was indexed with: every trigger removes a skill
// BEFORE its row or files change, reading the values still stored, and adds it back AFTER, reading the new ones.
// A skill whose index_paused is 1 is not in the index; writers that rewrite a skill in several statements pause it
// first and resume it last (skills-repo.ts), so its text is indexed once.

/** How one index takes a skill in and out; `id` is an SQL expression (NEW.id, OLD.skill_id). */
export interface IndexTarget {
  add(id: string): string;
  remove(id: string): string;
}

const columns = 'name, description, body, refs';

/** An FTS5 table with content='skills_fts_source'; `only` limits which skills it holds (the conversion's cursor). */
export function externalContentIndex(table: string, only: (id: string) => string = () => ''): IndexTarget {
  return {
    add: (id) =>
      `INSERT INTO ${table} (rowid, ${columns}) SELECT id, ${columns} FROM skills_fts_source WHERE id = ${id}${only(id)};`,
    remove: (id) =>
      `INSERT INTO ${table} (${table}, rowid, ${columns}) SELECT 'delete', id, ${columns} FROM skills_fts_source WHERE id = ${id}${only(id)};`,
  };
}

/** The FTS5 table of migration 001, with its own copy of the text: removed by rowid. */
export function storedContentIndex(table: string): IndexTarget {
  return {
    add: (id) =>
      `INSERT INTO ${table} (rowid, ${columns}) SELECT id, ${columns} FROM skills_fts_source WHERE id = ${id};`,
    remove: (id) => `DELETE FROM ${table} WHERE rowid = ${id};`,
  };
}

/** Where a skill's full text is stored: the column, and the SQL that reads the text from a row (OLD, NEW). */
export interface FullTextColumn {
  column: string;
  text(row: string): string;
}

/** Migrations 001-033: full_text holds the text. */
export const plainFullText: FullTextColumn = { column: 'full_text', text: (row) => `${row}.full_text` };
/** From migration 034: full_text_stored holds it, packed (text-packing.ts). */
export const packedFullText: FullTextColumn = {
  column: 'full_text_stored',
  text: (row) => `unpack_text(${row}.full_text_stored)`,
};

const bodyOf = (row: string, fullText: FullTextColumn) =>
  `CASE WHEN ${row}.body_start IS NULL THEN ${row}.body_own ELSE substr(${fullText.text(row)}, ${row}.body_start + 1) END`;
/** An update that changes what the index holds (generated columns are not readable in BEFORE triggers). */
const indexedValuesChange = (
  fullText: FullTextColumn,
) => `(OLD.id != NEW.id OR OLD.name IS NOT NEW.name OR OLD.description IS NOT NEW.description
    OR (${bodyOf('OLD', fullText)}) IS NOT (${bodyOf('NEW', fullText)}))`;
const indexed = (skillId: string) => `(SELECT index_paused FROM skills WHERE id = ${skillId}) = 0`;
const fileText = (row: string) => `${row}.text_content IS NOT NULL`;

export const textIndexTriggerNames = [
  'skills_index_insert',
  'skills_index_delete',
  'skills_index_pause',
  'skills_index_resume',
  'skills_index_update_before',
  'skills_index_update_after',
  'skill_files_index_insert_before',
  'skill_files_index_insert_after',
  'skill_files_index_delete_before',
  'skill_files_index_delete_after',
  'skill_files_index_update_before',
  'skill_files_index_update_after',
  'skill_files_keep_owner',
];

export function dropTextIndexTriggers(): string {
  return textIndexTriggerNames.map((n) => `DROP TRIGGER IF EXISTS ${n};`).join('\n');
}

/** The triggers that keep every target index right (`fullText`: where the schema they are made for keeps the text). */
export function textIndexTriggers(targets: IndexTarget[], fullText = plainFullText): string {
  const textColumns = `id, name, description, ${fullText.column}, body_own, body_start`;
  const add = (id: string) => targets.map((t) => t.add(id)).join('\n  ');
  const remove = (id: string) => targets.map((t) => t.remove(id)).join('\n  ');
  const trigger = (name: string, when: string, on: string, body: string) =>
    `CREATE TRIGGER ${name} ${when} ON ${on}\nBEGIN\n  ${body}\nEND;`;
  return [
    trigger('skills_index_insert', 'AFTER INSERT', 'skills WHEN NEW.index_paused = 0', add('NEW.id')),
    trigger('skills_index_delete', 'BEFORE DELETE', 'skills WHEN OLD.index_paused = 0', remove('OLD.id')),
    trigger(
      'skills_index_pause',
      'BEFORE UPDATE OF index_paused',
      'skills WHEN OLD.index_paused = 0 AND NEW.index_paused != 0',
      remove('OLD.id'),
    ),
    trigger(
      'skills_index_resume',
      'AFTER UPDATE OF index_paused',
      'skills WHEN OLD.index_paused != 0 AND NEW.index_paused = 0',
      add('NEW.id'),
    ),
    trigger(
      'skills_index_update_before',
      `BEFORE UPDATE OF ${textColumns}`,
      `skills WHEN OLD.index_paused = 0 AND NEW.index_paused = 0 AND ${indexedValuesChange(fullText)}`,
      remove('OLD.id'),
    ),
    trigger(
      'skills_index_update_after',
      `AFTER UPDATE OF ${textColumns}`,
      `skills WHEN OLD.index_paused = 0 AND NEW.index_paused = 0 AND ${indexedValuesChange(fullText)}`,
      add('NEW.id'),
    ),
    // A skill's files are removed by cascade after its row: indexed() is then NULL and nothing more happens.
    trigger(
      'skill_files_index_insert_before',
      'BEFORE INSERT',
      `skill_files WHEN ${fileText('NEW')} AND ${indexed('NEW.skill_id')}`,
      remove('NEW.skill_id'),
    ),
    trigger(
      'skill_files_index_insert_after',
      'AFTER INSERT',
      `skill_files WHEN ${fileText('NEW')} AND ${indexed('NEW.skill_id')}`,
      add('NEW.skill_id'),
    ),
    trigger(
      'skill_files_index_delete_before',
      'BEFORE DELETE',
      `skill_files WHEN ${fileText('OLD')} AND ${indexed('OLD.skill_id')}`,
      remove('OLD.skill_id'),
    ),
    trigger(
      'skill_files_index_delete_after',
      'AFTER DELETE',
      `skill_files WHEN ${fileText('OLD')} AND ${indexed('OLD.skill_id')}`,
      add('OLD.skill_id'),
    ),
    trigger(
      'skill_files_index_update_before',
      'BEFORE UPDATE OF path, text_content',
      `skill_files WHEN (${fileText('OLD')} OR ${fileText('NEW')}) AND ${indexed('OLD.skill_id')}`,
      remove('OLD.skill_id'),
    ),
    trigger(
      'skill_files_index_update_after',
      'AFTER UPDATE OF path, text_content',
      `skill_files WHEN (${fileText('OLD')} OR ${fileText('NEW')}) AND ${indexed('OLD.skill_id')}`,
      add('OLD.skill_id'),
    ),
    trigger(
      'skill_files_keep_owner',
      'BEFORE UPDATE OF skill_id',
      'skill_files WHEN OLD.skill_id != NEW.skill_id',
      "SELECT RAISE(ABORT, 'A package file cannot move to another skill: delete it and add it there');",
    ),
  ].join('\n');
}
