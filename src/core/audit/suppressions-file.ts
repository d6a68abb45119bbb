// The curator's audit suppressions as lines of the states file, so a judgement made in one library (this finding is a
// false positive, and why) travels with the reviewed states to another. A suppression names its skill by name and
// keeps the content it was made on (file or skill digest, finding fingerprint), so it holds there only on the same
// content, exactly as here.
import type { Db } from '../store/db';
import { schema } from '../zod';

export const SUPPRESSION_LINE_KIND = 'audit-suppression';

export interface SuppressionLine {
  kind: typeof SUPPRESSION_LINE_KIND;
  /** The skill's name; null for a rule suppressed library-wide. */
  name: string | null;
  scope: 'finding' | 'skill-rule' | 'rule';
  rule: string;
  fingerprint: string | null;
  contentSha256: string | null;
  reason: string;
  createdAt: string;
}

export const suppressionLineSchema = schema((z) =>
  z
    .object({
      kind: z.literal(SUPPRESSION_LINE_KIND),
      name: z.string().trim().min(1).nullable(),
      scope: z.enum(['finding', 'skill-rule', 'rule']),
      rule: z.string().trim().min(1).max(200),
      fingerprint: z
        .string()
        .regex(/^[0-9a-f]{8,64}$/)
        .nullable(),
      contentSha256: z
        .string()
        .regex(/^[0-9a-f]{16,128}$/)
        .nullable(),
      reason: z.string().trim().min(3).max(2000),
      createdAt: z.string().min(1).max(40),
    })
    .refine((l) => (l.scope === 'rule') === (l.name === null), {
      message: 'a rule suppression names no skill; the others name one',
    })
    .refine((l) => l.scope !== 'finding' || (l.fingerprint !== null && l.contentSha256 !== null), {
      message: 'a finding suppression keeps the finding fingerprint and the file digest it was made on',
    }),
);

interface Row {
  name: string | null;
  scope: SuppressionLine['scope'];
  rule_id: string;
  fingerprint: string | null;
  content_sha256: string | null;
  reason: string;
  created_at: string;
}

/** Every suppression, or those of the named skills plus the library-wide ones; ordered for a stable file. */
export function suppressionLines(db: Db, names?: ReadonlySet<string>): SuppressionLine[] {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit_suppressions'").get())
    return [];
  const rows = db
    .prepare(
      `SELECT s.name, a.scope, a.rule_id, a.fingerprint, a.content_sha256, a.reason, a.created_at
       FROM audit_suppressions a LEFT JOIN skills s ON s.id = a.skill_id
       ORDER BY s.name IS NOT NULL, s.name, a.rule_id, a.id`,
    )
    .all() as Row[];
  return rows
    .filter((r) => r.name === null || names === undefined || names.has(r.name))
    .map((r) => ({
      kind: SUPPRESSION_LINE_KIND,
      name: r.name,
      scope: r.scope,
      rule: r.rule_id,
      fingerprint: r.fingerprint,
      contentSha256: r.content_sha256,
      reason: r.reason,
      createdAt: r.created_at,
    }));
}

export type SuppressionImport = 'applied' | 'unchanged' | 'unknown-skill';

/** Adds the suppression to every skill of its name (or library-wide); one already there is not added twice. */
export function importSuppressionLine(db: Db, line: SuppressionLine): SuppressionImport {
  const skills =
    line.name === null
      ? [null]
      : (db.prepare('SELECT id FROM skills WHERE name = ?').pluck().all(line.name) as number[]);
  if (skills.length === 0) return 'unknown-skill';
  const same = db.prepare(
    `SELECT 1 FROM audit_suppressions WHERE scope = ? AND rule_id = ? AND skill_id IS ? AND fingerprint IS ?
       AND content_sha256 IS ?`,
  );
  const insert = db.prepare(
    `INSERT INTO audit_suppressions (scope, rule_id, skill_id, fingerprint, content_sha256, reason, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  let added = 0;
  db.transaction(() => {
    for (const skillId of skills) {
      const key = [line.scope, line.rule, skillId, line.fingerprint, line.contentSha256] as const;
      if (same.get(...key)) continue;
      insert.run(...key, line.reason, line.createdAt);
      added++;
    }
  })();
  return added > 0 ? 'applied' : 'unchanged';
}
