import type { Migration } from './index';

// Cross-encoder scores r(a, b), keyed so that a new model or a new instruction version never reuses old scores.
export const m011ScoreCache: Migration = {
  id: 11,
  name: 'score-cache',
  sql: `
CREATE TABLE score_cache (
  model_id TEXT NOT NULL,
  instruction_version TEXT NOT NULL,
  a_hash TEXT NOT NULL,                -- sha256 of the query side
  b_hash TEXT NOT NULL,                -- sha256 of the document side
  r REAL NOT NULL,
  truncated INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (model_id, instruction_version, a_hash, b_hash)
) WITHOUT ROWID;
`,
};
