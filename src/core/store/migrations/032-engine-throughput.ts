import type { Migration } from './index';

// Tokens per second observed per scoring engine, so a selection's cost can be estimated on this machine.
export const m032EngineThroughput: Migration = {
  id: 32,
  name: 'engine-throughput',
  sql: `
CREATE TABLE engine_throughput (
  engine_id TEXT NOT NULL,
  tier TEXT NOT NULL,                  -- cross-encoder | embedder | lexical
  tokens REAL NOT NULL,                -- decayed sums: recent selections weigh most
  seconds REAL NOT NULL,
  samples INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (engine_id, tier)
) WITHOUT ROWID;
`,
};
