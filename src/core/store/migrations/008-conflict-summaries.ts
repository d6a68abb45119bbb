import { incomingFromJson, summaryOf } from '../conflicts-repo';
import type { Db } from '../db';
import type { Migration } from './index';

// What a list of conflicts shows of each incoming skill, in columns of its own: listing 3,928 conflicts of a 68k
// library inflated and parsed every incoming skill's packed JSON (its whole text) to read a description, a hash, a
// count and the warnings (2.9 s for the CLI's `conflicts`, asked by the Library screen on every load). The import
// writes them with the row; rows written before are filled here, once.
export const m008ConflictSummaries: Migration = {
  id: 8,
  name: 'conflict-summaries',
  sql: `
ALTER TABLE import_conflicts ADD COLUMN incoming_description TEXT;
ALTER TABLE import_conflicts ADD COLUMN incoming_hash TEXT;
ALTER TABLE import_conflicts ADD COLUMN incoming_file_count INTEGER;
ALTER TABLE import_conflicts ADD COLUMN incoming_warnings TEXT; -- JSON: the incoming skill's validation issues
`,
  afterSql: fillConflictSummaries,
};

function fillConflictSummaries(db: Db): void {
  const update = db.prepare(
    `UPDATE import_conflicts SET incoming_description = @description, incoming_hash = @hash,
       incoming_file_count = @fileCount, incoming_warnings = @warnings WHERE id = @id`,
  );
  const incomingOf = db.prepare('SELECT incoming FROM import_conflicts WHERE id = ?').pluck();
  for (const id of db.prepare('SELECT id FROM import_conflicts').pluck().all() as number[]) {
    update.run({ id, ...summaryOf(incomingFromJson(incomingOf.get(id) as string | Buffer)) });
  }
}
