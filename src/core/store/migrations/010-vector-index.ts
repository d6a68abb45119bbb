import type { Migration } from './index';

// Vectors of the recall text m_k = `name | description`, one per skill, with the model that made them.
// Float vectors live in a plain table (fast primary-key reads for exact rescoring: a vec0 point read costs ~1 ms);
// their sign bits live in a per-dimension vec0 `bit[dim]` table created by the index code (skill_vec_bits_<dim>).
export const m010VectorIndex: Migration = {
  id: 10,
  name: 'vector-index',
  sql: `
CREATE TABLE skill_vectors (
  skill_id INTEGER PRIMARY KEY REFERENCES skills(id) ON DELETE CASCADE,
  model_id TEXT NOT NULL,
  dtype TEXT NOT NULL,
  dim INTEGER NOT NULL,
  text_hash TEXT NOT NULL,             -- sha256 of the recall text the vector was made from
  l1 REAL NOT NULL,                    -- sum of |x_i|: scales the binary estimate of a dot product
  updated_at TEXT NOT NULL,
  vector BLOB NOT NULL                 -- float32 x dim, unit length; last so scans of the other columns skip it
);
CREATE INDEX skill_vectors_model ON skill_vectors(model_id);

-- One row: which model the index is for, and whether a build is under way (a crash leaves building = 1).
CREATE TABLE vector_index_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  model_id TEXT NOT NULL,
  dtype TEXT NOT NULL,
  dim INTEGER NOT NULL,
  building INTEGER NOT NULL DEFAULT 0,
  generation INTEGER NOT NULL DEFAULT 0,  -- bumped on every write, so in-memory coarse indexes know to reload
  started_at TEXT,
  finished_at TEXT,
  updated_at TEXT NOT NULL
);

-- Document frequencies of skills_fts terms, for the lexical engine's IDF.
CREATE VIRTUAL TABLE skills_fts_vocab USING fts5vocab(skills_fts, 'row');
`,
};
