// Converts a library written before migrations 005/006 in place: each skill's body moves into its full text (stored
// once) and the full-text index is rebuilt without its own copy of the text. Batches in id order, one transaction
// each, with the cursor stored in the library (text_index_conversion), so a crash loses at most one batch and a
// restart goes on from there. The old index stays the searched one, kept right by triggers, until the new one holds
// every skill; then they swap in one transaction, and VACUUM gives the space back to the file system.
import type { Db } from './db';
import { dropTextIndexTriggers, externalContentIndex, textIndexTriggers } from './text-index-triggers';

export interface ConversionState {
  phase: 'indexing' | 'vacuum';
  doneThrough: number;
  bytesBefore: number | null;
}

export interface ConversionProgress {
  done: number;
  total: number;
}

export interface ConversionResult {
  skills: number;
  bytesBefore: number;
  bytesAfter: number;
  reclaimedBytes: number;
}

/** The conversion still to do, or null when the library has none (converted, or created after migration 006). */
export function conversionState(db: Db): ConversionState | null {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'text_index_conversion'")
    .get();
  if (!table) return null;
  const row = db
    .prepare(
      'SELECT phase, done_through AS doneThrough, bytes_before AS bytesBefore FROM text_index_conversion WHERE id = 1',
    )
    .get() as ConversionState | undefined;
  return row ?? null;
}

export function conversionProgress(db: Db): ConversionProgress {
  const state = conversionState(db);
  const total = db.prepare('SELECT COUNT(*) FROM skills').pluck().get() as number;
  if (!state) return { done: total, total };
  if (state.phase === 'vacuum') return { done: total, total };
  const done = db
    .prepare('SELECT COUNT(*) FROM skills WHERE id <= ?')
    .pluck()
    .get(state.doneThrough) as number;
  return { done, total };
}

function fileBytes(db: Db): number {
  return (
    (db.pragma('page_count', { simple: true }) as number) *
    (db.pragma('page_size', { simple: true }) as number)
  );
}

/**
 * Converts the next `size` skills. Returns 'more' while skills are left, 'vacuum' once the new index holds them all
 * and has replaced the old one (the space is still to be given back), 'none' when there was nothing to convert.
 */
export function convertBatch(db: Db, size: number): 'more' | 'vacuum' | 'none' {
  return db
    .transaction((): 'more' | 'vacuum' | 'none' => {
      const state = conversionState(db);
      if (!state) return 'none';
      if (state.phase === 'vacuum') return 'vacuum';
      if (state.bytesBefore === null)
        db.prepare('UPDATE text_index_conversion SET bytes_before = ? WHERE id = 1').run(fileBytes(db));
      const from = state.doneThrough;
      const last = db
        .prepare('SELECT MAX(id) FROM (SELECT id FROM skills WHERE id > ? ORDER BY id LIMIT ?)')
        .pluck()
        .get(from, size) as number | null;
      if (last === null) {
        swapIndexes(db);
        return 'vacuum';
      }
      // The body becomes an offset into the full text where it is its end (SQLite counts characters; a NUL would
      // end length() early, so such a text keeps its own body).
      db.prepare(
        `UPDATE skills SET body_start = length(full_text) - length(body_own), body_own = ''
         WHERE id > ? AND id <= ? AND body_start IS NULL AND instr(full_text, char(0)) = 0
           AND instr(body_own, char(0)) = 0
           AND substr(full_text, length(full_text) - length(body_own) + 1) = body_own`,
      ).run(from, last);
      db.prepare(
        `INSERT INTO skills_fts_next (rowid, name, description, body, refs)
         SELECT id, name, description, body, refs FROM skills_fts_source
         WHERE id > ? AND id <= ? AND id IN (SELECT id FROM skills WHERE id > ? AND id <= ? AND index_paused = 0)`,
      ).run(from, last, from, last);
      db.prepare('UPDATE text_index_conversion SET done_through = ? WHERE id = 1').run(last);
      return 'more';
    })
    .immediate();
}

/** The new index takes the old one's name (searches and skills_fts_vocab find it there); the old one is dropped. */
function swapIndexes(db: Db): void {
  db.exec(`
${dropTextIndexTriggers()}
DROP TABLE skills_fts;
ALTER TABLE skills_fts_next RENAME TO skills_fts;
${textIndexTriggers([externalContentIndex('skills_fts')])}
UPDATE text_index_conversion SET phase = 'vacuum' WHERE id = 1;
`);
}

/** A library with no skills converts at once, while it opens (a new library never shows a conversion). */
export function settleEmptyConversion(db: Db): void {
  const state = conversionState(db);
  if (!state || state.phase !== 'indexing') return;
  if (db.prepare('SELECT 1 FROM skills LIMIT 1').get()) return;
  db.transaction(() => {
    swapIndexes(db);
    db.exec('DROP TABLE text_index_conversion');
  }).immediate();
}

/** Merges the new index into one segment and rewrites the file without the free pages the old copies left. */
export function finishConversion(db: Db): ConversionResult {
  const state = conversionState(db);
  const skills = db.prepare('SELECT COUNT(*) FROM skills').pluck().get() as number;
  if (!state || state.phase !== 'vacuum') {
    const bytes = fileBytes(db);
    return { skills, bytesBefore: bytes, bytesAfter: bytes, reclaimedBytes: 0 };
  }
  db.exec("INSERT INTO skills_fts (skills_fts) VALUES ('optimize')");
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const bytesAfter = fileBytes(db);
  const bytesBefore = state.bytesBefore ?? bytesAfter;
  db.exec('DROP TABLE text_index_conversion');
  return { skills, bytesBefore, bytesAfter, reclaimedBytes: Math.max(0, bytesBefore - bytesAfter) };
}
