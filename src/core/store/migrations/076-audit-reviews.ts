import type { Migration } from './index';

// The LLM's second opinion on a high or critical finding: confirm or likely benign, with its reason, kept per finding
// (its fingerprint) and the file content it read. It is shown beside the rule's verdict and never suppresses anything.
export const m076AuditReviews: Migration = {
  id: 76,
  name: 'audit-reviews',
  sql: `
CREATE TABLE audit_reviews (
  skill_id INTEGER NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  file_sha256 TEXT NOT NULL,
  verdict TEXT CHECK (verdict IN ('confirm', 'likely-benign')),
  reason TEXT NOT NULL,
  error TEXT,
  model TEXT NOT NULL,
  prompt_version TEXT NOT NULL,
  reviewed_at TEXT NOT NULL,
  PRIMARY KEY (skill_id, fingerprint, file_sha256)
);
`,
};
