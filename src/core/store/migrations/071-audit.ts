import type { Migration } from './index';

// The audit of each skill: which content and rules it was made with, its findings (with the hash of the file each
// points into), and the curator's suppressions. A suppression of one finding or of a rule for a skill holds while the
// content it was made on is unchanged; a rule suppressed library-wide has no skill.
export const m071Audit: Migration = {
  id: 71,
  name: 'audit',
  sql: `
CREATE TABLE audit_state (
  skill_id INTEGER PRIMARY KEY REFERENCES skills(id) ON DELETE CASCADE,
  content_hash TEXT NOT NULL,
  rules_version INTEGER NOT NULL,
  profile TEXT NOT NULL,
  audited_at TEXT NOT NULL
);
CREATE TABLE audit_findings (
  id INTEGER PRIMARY KEY,
  skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  rule_id TEXT NOT NULL,
  category TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
  file TEXT NOT NULL,
  line INTEGER,
  excerpt TEXT NOT NULL,
  why TEXT NOT NULL,
  seen_after TEXT,
  file_sha256 TEXT NOT NULL,
  fingerprint TEXT NOT NULL
);
CREATE INDEX audit_findings_skill ON audit_findings(skill_id);
CREATE TABLE audit_suppressions (
  id INTEGER PRIMARY KEY,
  scope TEXT NOT NULL CHECK (scope IN ('finding', 'skill-rule', 'rule')),
  rule_id TEXT NOT NULL,
  skill_id INTEGER REFERENCES skills(id) ON DELETE CASCADE,
  fingerprint TEXT,
  content_sha256 TEXT,
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL,
  CHECK ((scope = 'rule') = (skill_id IS NULL))
);
CREATE INDEX audit_suppressions_skill ON audit_suppressions(skill_id);
`,
};
