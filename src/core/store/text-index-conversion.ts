// Converts a library written by an older version in place. Phase 'indexing' (before migrations 005/006): each skill's
// body moves into its full text (stored once) and the full-text index is rebuilt without its own copy of the text;
// the old index stays the searched one, kept right by triggers, until the new one holds every skill, then they swap
// in one transaction. Phase 'packing' (before migration 034): each full text, then each conflict's incoming skill, is
// stored compressed (text-packing.ts); readers see the same text throughout. Batches in id order, one transaction
// each, with the cursor stored in the library (text_index_conversion), so a crash loses at most one batch and a
// restart goes on from there. At the end VACUUM gives the space back to the file system.
import type { Db } from './db';
import {
  dropTextIndexTriggers,
  externalContentIndex,
  packedFullText,
  storedContentIndex,
  textIndexTriggers,
} from './text-index-triggers';

export type ConversionPhase = 'indexing' | 'packing' | 'vacuum';

export interface ConversionState {
  phase: ConversionPhase;
  doneThrough: number;
  bytesBefore: number | null;
}

export interface ConversionProgress {
  done: number;
  total: number;
}

/** What the conversion job says it is doing in each phase. */
export const conversionMessages: Record<ConversionPhase, string> = {
  indexing: 'Storing each skill text once and indexing it',
  packing: 'Compressing each skill text',
  vacuum: 'Giving the freed space back to the disk (VACUUM)',
};

export interface ConversionResult {
  skills: number;
  bytesBefore: number;
  bytesAfter: number;
  reclaimedBytes: number;
}

/** The conversion still to do, or null when the library has none (converted, or created after migration 034). */
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
 * Converts the next `size` skills. Returns 'more' while skills are left, 'vacuum' once every skill is converted (the
 * space is still to be given back), 'none' when there was nothing to convert.
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
      if (state.phase === 'packing') return packBatch(db, from, last);
      if (last === null) {
        swapIndexes(db);
        return 'more';
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

/** Packs the texts of skills from+1..last (their index entries stay: the text reads the same); null: none left. */
function packBatch(db: Db, from: number, last: number | null): 'more' | 'vacuum' {
  if (last === null) {
    db.exec(`UPDATE import_conflicts SET incoming = pack_text(incoming) WHERE typeof(incoming) = 'text';
      UPDATE text_index_conversion SET phase = 'vacuum' WHERE id = 1;`);
    return 'vacuum';
  }
  db.prepare(
    `UPDATE skills SET full_text_stored = pack_text(full_text_stored)
     WHERE id > ? AND id <= ? AND typeof(full_text_stored) = 'text'`,
  ).run(from, last);
  db.prepare('UPDATE text_index_conversion SET done_through = ? WHERE id = 1').run(last);
  return 'more';
}

/** The triggers for the indexes this library has now: both while the new index fills, then the new one alone. */
export function currentTextIndexTriggers(db: Db): string {
  const targets =
    conversionState(db)?.phase === 'indexing'
      ? [
          storedContentIndex('skills_fts'),
          externalContentIndex(
            'skills_fts_next',
            (id) => ` AND ${id} <= (SELECT done_through FROM text_index_conversion)`,
          ),
        ]
      : [externalContentIndex('skills_fts')];
  return `${dropTextIndexTriggers()}\n${textIndexTriggers(targets, packedFullText)}`;
}

/**
 * The new index takes the old one's name (searches and skills_fts_vocab find it there); the old one is dropped, and
 * the texts are packed next (from the first skill: those indexed before this version came are not packed yet).
 */
function swapIndexes(db: Db): void {
  db.exec(`
${dropTextIndexTriggers()}
DROP TABLE skills_fts;
ALTER TABLE skills_fts_next RENAME TO skills_fts;
UPDATE text_index_conversion SET phase = 'packing', done_through = 0, reindexed = 1 WHERE id = 1;
`);
  db.exec(currentTextIndexTriggers(db));
}

/** A library with no skills converts at once, while it opens (a new library never shows a conversion). */
export function settleEmptyConversion(db: Db): void {
  const state = conversionState(db);
  if (!state || state.phase === 'vacuum') return;
  if (db.prepare('SELECT 1 FROM skills LIMIT 1').get()) return;
  db.transaction(() => {
    if (state.phase === 'indexing') swapIndexes(db);
    db.exec('DROP TABLE text_index_conversion');
  }).immediate();
}

/** Merges a rebuilt index into one segment and rewrites the file without the free pages the old copies left. */
export function finishConversion(db: Db): ConversionResult {
  const state = conversionState(db);
  const skills = db.prepare('SELECT COUNT(*) FROM skills').pluck().get() as number;
  if (!state || state.phase !== 'vacuum') {
    const bytes = fileBytes(db);
    return { skills, bytesBefore: bytes, bytesAfter: bytes, reclaimedBytes: 0 };
  }
  const reindexed = db.prepare('SELECT reindexed FROM text_index_conversion').pluck().get() === 1;
  if (reindexed) db.exec("INSERT INTO skills_fts (skills_fts) VALUES ('optimize')");
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const bytesAfter = fileBytes(db);
  const bytesBefore = state.bytesBefore ?? bytesAfter;
  db.exec('DROP TABLE text_index_conversion');
  return { skills, bytesBefore, bytesAfter, reclaimedBytes: Math.max(0, bytesBefore - bytesAfter) };
}

/**
 * Migration 034's part that depends on the library: the conversion table gains the 'packing' phase (a conversion under
 * way keeps its cursor; one waiting for VACUUM packs first), a library with skills gets one, and the index triggers
 * are made again for the packed column.
 */
export function setUpPacking(db: Db): void {
  const before = conversionState(db);
  db.exec(`
DROP TABLE IF EXISTS text_index_conversion;
CREATE TABLE text_index_conversion (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  phase TEXT NOT NULL CHECK (phase IN ('indexing', 'packing', 'vacuum')),
  done_through INTEGER NOT NULL,       -- the cursor of the phase: skills with id <= this are converted
  bytes_before INTEGER,                -- the file's size when the conversion began, for the job's result
  reindexed INTEGER NOT NULL DEFAULT 0 -- 1 once the index was rebuilt (it is then optimised before VACUUM)
);`);
  const insert = db.prepare(
    'INSERT INTO text_index_conversion (id, phase, done_through, bytes_before, reindexed) VALUES (1, ?, ?, ?, ?)',
  );
  if (before?.phase === 'indexing') insert.run('indexing', before.doneThrough, before.bytesBefore, 0);
  else if (before?.phase === 'vacuum') insert.run('packing', 0, before.bytesBefore, 1);
  else if (db.prepare('SELECT 1 FROM skills LIMIT 1').get()) insert.run('packing', 0, null, 0);
  else db.exec('DROP TABLE text_index_conversion');
  db.exec(currentTextIndexTriggers(db));
}
