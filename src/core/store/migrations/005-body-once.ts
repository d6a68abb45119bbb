import type { Migration } from './index';

// The body of a SKILL.md is the end of its full text: it is stored once, as an offset into full_text. `body` stays a
// column every reader can select (generated, not stored). A body that is not the end of its full text (none the parser
// writes, but a library may hold one) keeps its own copy in body_own. Rows written before this migration keep theirs
// until the library conversion job (src/core/store/text-index-conversion.ts) moves them over, in batches.
// index_paused: 1 while a writer rewrites a skill in several statements (the row, then its files), so the full-text
// index is written once, when the writer sets it back to 0 (see migration 006).
export const m005BodyOnce: Migration = {
  id: 5,
  name: 'body-once',
  sql: `
ALTER TABLE skills RENAME COLUMN body TO body_own;
ALTER TABLE skills ADD COLUMN body_start INTEGER;
ALTER TABLE skills ADD COLUMN body TEXT GENERATED ALWAYS AS (
  CASE WHEN body_start IS NULL THEN body_own ELSE substr(full_text, body_start + 1) END) VIRTUAL;
ALTER TABLE skills ADD COLUMN index_paused INTEGER NOT NULL DEFAULT 0;
`,
};
