import type { Migration } from './index';

// The open conflicts, per source and in all: library.stats (the host's first answer) and the sources list count them.
// Without this index each count read every conflict row, and resolved_at sits behind the incoming skill's JSON, so
// a library with thousands of conflicts read megabytes of overflow pages (65 ms of 0.5 s at 64k skills, 3.9k
// conflicts). A partial index holds only the open ones, so it stays as small as the work left.
export const m009OpenConflicts: Migration = {
  id: 9,
  name: 'open-conflicts',
  sql: `
CREATE INDEX import_conflicts_open ON import_conflicts(source_id) WHERE resolved_at IS NULL;
`,
};
