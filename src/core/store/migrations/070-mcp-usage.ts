import type { Migration } from './index';

// What agents asked of the library over MCP, for the curator's Usage view: one row per call, and one per skill the
// call offered, selected or read. Skills are named by id and name only (a deleted skill's usage keeps its name);
// nothing of their content is copied. A select_skills call links to its selection run, which keeps the trace.
export const m070McpUsage: Migration = {
  id: 70,
  name: 'mcp-usage',
  sql: `
CREATE TABLE usage_calls (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  tool TEXT NOT NULL,
  query TEXT,
  client TEXT,
  rule TEXT NOT NULL CHECK (rule IN ('all', 'verified', 'profile')),
  profile TEXT,
  run_id INTEGER REFERENCES selection_runs(id) ON DELETE SET NULL
);
CREATE INDEX usage_calls_at ON usage_calls(at);
CREATE TABLE usage_skills (
  call_id INTEGER NOT NULL REFERENCES usage_calls(id) ON DELETE CASCADE,
  skill_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('offered', 'selected', 'read')),
  path TEXT
);
CREATE INDEX usage_skills_call ON usage_skills(call_id);
CREATE INDEX usage_skills_skill ON usage_skills(skill_id, role);
`,
};
