import type { Migration } from './index';

// Each skill's worst unsuppressed audit severity (0 info … 4 critical), kept by triggers so the Library can show and
// filter it over 68,000 skills without reading every finding and suppression (a join took 120-190 ms a query).
// A suppression holds as audit-store.ts decides: a rule library-wide; a rule for a skill while the skill's content is
// the one it was made on; one finding while its file is. Skills without an unsuppressed finding have no row.
const rank = `CASE af.severity WHEN 'info' THEN 0 WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 ELSE 4 END`;

const unsuppressed = `NOT EXISTS (SELECT 1 FROM audit_suppressions r WHERE r.scope = 'rule' AND r.rule_id = af.rule_id)
  AND NOT EXISTS (SELECT 1 FROM audit_suppressions sp WHERE sp.skill_id = af.skill_id AND sp.rule_id = af.rule_id
    AND ((sp.scope = 'skill-rule' AND sp.content_sha256 = sk.content_hash)
      OR (sp.scope = 'finding' AND sp.fingerprint = af.fingerprint AND sp.content_sha256 = af.file_sha256)))`;

/** Recomputes the rows of the skills `ids` (an SQL list or subquery). */
const recompute = (ids: string) => `
  DELETE FROM audit_worst WHERE skill_id IN (${ids});
  INSERT INTO audit_worst (skill_id, worst)
    SELECT af.skill_id, MAX(${rank}) FROM audit_findings af JOIN skills sk ON sk.id = af.skill_id
    WHERE af.skill_id IN (${ids}) AND ${unsuppressed} GROUP BY af.skill_id;`;

/** The skills a suppression touches: its own, or for a rule library-wide every skill with a finding of the rule. */
const ofSuppression = (row: 'NEW' | 'OLD') =>
  `SELECT ${row}.skill_id WHERE ${row}.scope != 'rule'
   UNION SELECT skill_id FROM audit_findings WHERE ${row}.scope = 'rule' AND rule_id = ${row}.rule_id`;

export const m075AuditWorst: Migration = {
  id: 75,
  name: 'audit-worst',
  sql: `
CREATE TABLE audit_worst (
  skill_id INTEGER PRIMARY KEY REFERENCES skills(id) ON DELETE CASCADE,
  worst INTEGER NOT NULL
);
CREATE INDEX audit_worst_rank ON audit_worst(worst);
CREATE INDEX audit_findings_rule ON audit_findings(rule_id);
CREATE INDEX audit_suppressions_rule ON audit_suppressions(rule_id) WHERE scope = 'rule';
INSERT INTO audit_worst (skill_id, worst)
  SELECT af.skill_id, MAX(${rank}) FROM audit_findings af JOIN skills sk ON sk.id = af.skill_id
  WHERE ${unsuppressed} GROUP BY af.skill_id;
CREATE TRIGGER audit_worst_finding_added AFTER INSERT ON audit_findings BEGIN ${recompute('NEW.skill_id')} END;
CREATE TRIGGER audit_worst_finding_removed AFTER DELETE ON audit_findings BEGIN ${recompute('OLD.skill_id')} END;
CREATE TRIGGER audit_worst_suppressed AFTER INSERT ON audit_suppressions BEGIN ${recompute(ofSuppression('NEW'))} END;
CREATE TRIGGER audit_worst_unsuppressed AFTER DELETE ON audit_suppressions BEGIN ${recompute(ofSuppression('OLD'))} END;
CREATE TRIGGER audit_worst_content AFTER UPDATE OF content_hash ON skills
  WHEN NEW.content_hash IS NOT OLD.content_hash BEGIN ${recompute('NEW.id')} END;
`,
};
