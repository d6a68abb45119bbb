// The audit in the library file: a skill's findings written in one go with the content they were made on, read back
// with the suppression that holds for each (or the one to review again), and the worst unsuppressed severity.
import { createHash } from 'node:crypto';
import type {
  AuditFinding,
  AuditLlmReview,
  AuditSkillSummary,
  AuditSuppression,
  Severity,
  SpecProfile,
  StoredFinding,
  SuppressionScope,
} from '../../shared/api/audit';
import { severities, severityRank, worstSeverity } from '../../shared/api/audit';
import type { Db } from '../store/db';
import { AUDIT_RULES_VERSION } from './audit-skill';

/** What identifies a finding across audits: its rule, file and text, not its line (lines move). */
export const fingerprintOf = (f: Pick<AuditFinding, 'ruleId' | 'file' | 'excerpt'>): string =>
  createHash('sha256').update(`${f.ruleId}\u0000${f.file}\u0000${f.excerpt}`).digest('hex').slice(0, 24);

export function saveAudit(
  db: Db,
  skillId: number,
  contentHash: string,
  profile: SpecProfile,
  findings: readonly AuditFinding[],
  fileHashes: ReadonlyMap<string, string>,
  at: string,
): void {
  const insert = db.prepare(
    `INSERT INTO audit_findings (skill_id, rule_id, category, severity, file, line, excerpt, why, seen_after, file_sha256, fingerprint)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    db.prepare('DELETE FROM audit_findings WHERE skill_id = ?').run(skillId);
    for (const f of findings)
      insert.run(
        skillId,
        f.ruleId,
        f.category,
        f.severity,
        f.file,
        f.line,
        f.excerpt,
        f.why,
        f.seenAfter ?? null,
        fileHashes.get(f.file) ?? '',
        fingerprintOf(f),
      );
    db.prepare(
      `INSERT INTO audit_state (skill_id, content_hash, rules_version, profile, audited_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (skill_id) DO UPDATE SET content_hash = excluded.content_hash, rules_version = excluded.rules_version,
         profile = excluded.profile, audited_at = excluded.audited_at`,
    ).run(skillId, contentHash, AUDIT_RULES_VERSION, profile, at);
  })();
}

/** Skills (of one source, if given) never audited, or audited on other content, rules or spec profile. */
export function staleSkillIds(db: Db, profile: SpecProfile, sourceId?: number): number[] {
  return db
    .prepare(
      `SELECT s.id FROM skills s LEFT JOIN audit_state a ON a.skill_id = s.id
       WHERE (a.skill_id IS NULL OR a.content_hash != s.content_hash OR a.rules_version != ? OR a.profile != ?)
         AND (? IS NULL OR s.source_id = ?)
       ORDER BY s.id`,
    )
    .pluck()
    .all(AUDIT_RULES_VERSION, profile, sourceId ?? null, sourceId ?? null) as number[];
}

interface FindingRow {
  id: number;
  skill_id: number;
  rule_id: string;
  category: AuditFinding['category'];
  severity: Severity;
  file: string;
  line: number | null;
  excerpt: string;
  why: string;
  seen_after: string | null;
  file_sha256: string;
  fingerprint: string;
}

interface SuppressionRow {
  id: number;
  scope: SuppressionScope;
  rule_id: string;
  skill_id: number | null;
  fingerprint: string | null;
  content_sha256: string | null;
  reason: string;
  created_at: string;
}

const suppressionOf = (r: SuppressionRow): AuditSuppression => ({
  id: r.id,
  scope: r.scope,
  ruleId: r.rule_id,
  skillId: r.skill_id,
  reason: r.reason,
  createdAt: r.created_at,
});

/** Each finding with the suppression that holds (same content) or the one made on other content (to review). */
function withSuppressions(
  db: Db,
  rows: FindingRow[],
  contentHashOf: (skillId: number) => string,
): StoredFinding[] {
  const rules = db.prepare("SELECT * FROM audit_suppressions WHERE scope = 'rule'").all() as SuppressionRow[];
  const reviewOf = db.prepare(
    'SELECT verdict, reason, error, model, reviewed_at FROM audit_reviews WHERE skill_id = ? AND fingerprint = ? AND file_sha256 = ?',
  );
  const bySkill = new Map<number, SuppressionRow[]>();
  const ofSkill = db.prepare('SELECT * FROM audit_suppressions WHERE skill_id = ?');
  return rows.map((r) => {
    if (!bySkill.has(r.skill_id)) bySkill.set(r.skill_id, ofSkill.all(r.skill_id) as SuppressionRow[]);
    const own = bySkill.get(r.skill_id)!.filter((s) => s.rule_id === r.rule_id);
    const matching = own.filter((s) => s.scope === 'skill-rule' || s.fingerprint === r.fingerprint);
    const holds = (s: SuppressionRow) =>
      s.scope === 'finding'
        ? s.content_sha256 === r.file_sha256
        : s.content_sha256 === contentHashOf(r.skill_id);
    const held = matching.find(holds) ?? rules.find((s) => s.rule_id === r.rule_id);
    const toReview = held ? undefined : matching.find((s) => !holds(s));
    return {
      id: r.id,
      skillId: r.skill_id,
      ruleId: r.rule_id,
      category: r.category,
      severity: r.severity,
      file: r.file,
      line: r.line,
      excerpt: r.excerpt,
      why: r.why,
      ...(r.seen_after ? { seenAfter: r.seen_after } : {}),
      suppressed: held ? suppressionOf(held) : null,
      suppressionToReview: toReview ? suppressionOf(toReview) : null,
      ...reviewField(reviewOf.get(r.skill_id, r.fingerprint, r.file_sha256) as ReviewRow | undefined),
    };
  });
}

interface ReviewRow {
  verdict: AuditLlmReview['verdict'];
  reason: string;
  error: string | null;
  model: string;
  reviewed_at: string;
}

const reviewField = (r: ReviewRow | undefined): { review?: AuditLlmReview } =>
  r
    ? {
        review: {
          verdict: r.verdict,
          reason: r.reason,
          error: r.error,
          model: r.model,
          reviewedAt: r.reviewed_at,
        },
      }
    : {};

const contentHashes = (db: Db) => {
  const q = db.prepare('SELECT content_hash FROM skills WHERE id = ?').pluck();
  const cache = new Map<number, string>();
  return (id: number) => {
    if (!cache.has(id)) cache.set(id, (q.get(id) as string | undefined) ?? '');
    return cache.get(id)!;
  };
};

export function findingsOf(db: Db, skillIds: readonly number[]): StoredFinding[] {
  const q = db.prepare('SELECT * FROM audit_findings WHERE skill_id = ? ORDER BY id');
  const rows = skillIds.flatMap((id) => q.all(id) as FindingRow[]);
  return withSuppressions(db, rows, contentHashes(db));
}

export function findingById(
  db: Db,
  id: number,
): (StoredFinding & { fileSha256: string; fingerprint: string }) | null {
  const row = db.prepare('SELECT * FROM audit_findings WHERE id = ?').get(id) as FindingRow | undefined;
  if (!row) return null;
  return {
    ...withSuppressions(db, [row], contentHashes(db))[0]!,
    fileSha256: row.file_sha256,
    fingerprint: row.fingerprint,
  };
}

export function auditStateOf(
  db: Db,
  skillId: number,
): { auditedAt: string; stale: boolean; profile: SpecProfile } | null {
  const row = db
    .prepare(
      `SELECT a.audited_at, a.profile, (a.content_hash != s.content_hash OR a.rules_version != ?) AS stale
       FROM audit_state a JOIN skills s ON s.id = a.skill_id WHERE a.skill_id = ?`,
    )
    .get(AUDIT_RULES_VERSION, skillId) as
    { audited_at: string; profile: SpecProfile; stale: number } | undefined;
  return row ? { auditedAt: row.audited_at, stale: row.stale === 1, profile: row.profile } : null;
}

export function worstUnsuppressed(findings: readonly StoredFinding[]): Severity | null {
  return worstSeverity(findings.filter((f) => f.suppressed === null));
}

/** One skill's summary: its worst unsuppressed severity and counts. */
function summaryOf(skillId: number, name: string, findings: StoredFinding[]): AuditSkillSummary {
  const counts = Object.fromEntries(severities.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of findings) if (!f.suppressed) counts[f.severity]++;
  return {
    skillId,
    name,
    worst: worstUnsuppressed(findings),
    counts,
    suppressed: findings.filter((f) => f.suppressed).length,
    toReview: findings.filter((f) => f.suppressionToReview).length,
  };
}

/**
 * The skills whose worst unsuppressed finding is at `min` or above, worst first then by name, one page of them: read
 * from the worst-severity table the triggers keep (migration 075), so only the page's findings are loaded.
 */
export function auditSummaryPage(
  db: Db,
  min: Severity,
  limit: number,
  offset: number,
): { total: number; items: AuditSkillSummary[] } {
  const at = severityRank(min);
  const total = db.prepare('SELECT COUNT(*) FROM audit_worst WHERE worst >= ?').pluck().get(at) as number;
  const rows = db
    .prepare(
      `SELECT w.skill_id AS id, s.name FROM audit_worst w JOIN skills s ON s.id = w.skill_id
       WHERE w.worst >= ? ORDER BY w.worst DESC, s.name, s.id LIMIT ? OFFSET ?`,
    )
    .all(at, limit, offset) as { id: number; name: string }[];
  const findings = findingsOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    total,
    items: rows.map((r) =>
      summaryOf(
        r.id,
        r.name,
        findings.filter((f) => f.skillId === r.id),
      ),
    ),
  };
}

export function insertSuppression(db: Db, s: Omit<SuppressionRow, 'id'>): AuditSuppression {
  const id = Number(
    db
      .prepare(
        `INSERT INTO audit_suppressions (scope, rule_id, skill_id, fingerprint, content_sha256, reason, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(s.scope, s.rule_id, s.skill_id, s.fingerprint, s.content_sha256, s.reason, s.created_at)
      .lastInsertRowid,
  );
  return suppressionOf({ ...s, id });
}
