import type { Migration } from './index';

// Which host asked for a selection run: NULL for the app and the CLI, 'mcp' for an agent over the MCP server. A column
// and not a new `origin` value: widening origin's CHECK means rebuilding selection_runs, and dropping the old table
// would fire eval_results' ON DELETE SET NULL on every evaluation's run links.
export const m060RunVia: Migration = {
  id: 60,
  name: 'run-via',
  sql: `
ALTER TABLE selection_runs ADD COLUMN via TEXT CHECK (via IS NULL OR via IN ('mcp'));
`,
};
