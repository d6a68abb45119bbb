// The audit part of the API: the audit job (on demand, and after each import for the skills it changed), a skill's
// findings, the list of flagged skills, suppressions, reports. The gate (audit-gate.ts) reads the same findings.
import type {
  AuditApi,
  AuditRunRequest,
  Severity,
  SpecProfile,
  SuppressionScope,
} from '../../shared/api/audit';
import { severities, severityRank, specProfiles } from '../../shared/api/audit';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { writeNewFile } from '../export/write-new-file';
import { pageOf } from '../store/library-filter';
import { AUDIT_RULES_VERSION } from './audit-skill';
import { auditReport } from './audit-reports';
import { auditSkills } from './audit-runner';
import {
  auditStateOf,
  auditSummaryPage,
  findingById,
  findingsOf,
  insertSuppression,
  staleSkillIds,
  worstUnsuppressed,
} from './audit-store';
import { AUDIT_REVIEW_JOB, reviewClient } from './llm-review';
import { auditRules } from './rules-catalog';

export const AUDIT_JOB = 'library.audit';

const scopes: SuppressionScope[] = ['finding', 'skill-rule', 'rule'];

function checkSeverity(s: unknown, what: string): Severity {
  if (!severities.includes(s as Severity))
    throw new CuratorError('INVALID_ARGUMENT', `${what} is one of ${severities.join(', ')}`);
  return s as Severity;
}

function profileOf(ctx: CoreContext, given: unknown): SpecProfile {
  if (given === undefined) return ctx.settings.get().audit.specProfile;
  if (!specProfiles.includes(given as SpecProfile))
    throw new CuratorError('INVALID_ARGUMENT', `profile is one of ${specProfiles.join(', ')}`);
  return given as SpecProfile;
}

export function registerAuditJob(ctx: CoreContext): void {
  ctx.jobs.register<AuditRunRequest>(AUDIT_JOB, async (req, job) => {
    const profile = profileOf(ctx, req.profile);
    const exists = ctx.db.prepare('SELECT 1 FROM skills WHERE id = ?').pluck();
    // A resumed job audits what is still stale: what it did before it stopped is stored.
    const stale = new Set(staleSkillIds(ctx.db, profile));
    const ids = req.skillIds
      ? req.skillIds.filter((id) => exists.get(id) && (req.force || stale.has(id)))
      : [...stale];
    const message = `Auditing ${ids.length} skill${ids.length === 1 ? '' : 's'}`;
    job.report({ done: 0, total: ids.length, message });
    const result = await auditSkills(ctx, ids, profile, {
      signal: job.signal,
      onProgress: (done) => job.report({ done, total: ids.length, message }),
    });
    ctx.events.emit({ type: 'library.changed', reason: 'audit' });
    if (result.cancelled)
      throw new CuratorError(
        'CANCELLED',
        `Audit cancelled after ${result.audited} skills; resume it to audit the rest`,
      );
    return result;
  });
}

export function createAuditService(ctx: CoreContext): AuditApi {
  const { db } = ctx;
  return {
    'audit.run': async (req) => {
      if (
        req?.skillIds !== undefined &&
        (!Array.isArray(req.skillIds) || req.skillIds.some((id) => !Number.isInteger(id)))
      )
        throw new CuratorError('INVALID_ARGUMENT', 'skillIds is a list of skill ids');
      profileOf(ctx, req?.profile);
      return ctx.jobs.start(AUDIT_JOB, { skillIds: req?.skillIds, force: req?.force, profile: req?.profile });
    },
    'audit.skill': async (req) => {
      const skill = db.prepare('SELECT id, name FROM skills WHERE id = ?').get(req?.skillId) as
        { id: number; name: string } | undefined;
      if (!skill) throw new CuratorError('NOT_FOUND', `No skill #${req?.skillId}`);
      const state = auditStateOf(db, skill.id);
      const findings = findingsOf(db, [skill.id]);
      return {
        skillId: skill.id,
        name: skill.name,
        auditedAt: state?.auditedAt ?? null,
        stale: state?.stale ?? true,
        profile: state?.profile ?? null,
        findings,
        worst: worstUnsuppressed(findings),
      };
    },
    'audit.list': async (req) => {
      const min = checkSeverity(req?.minSeverity ?? 'low', 'minSeverity');
      const { limit, offset } = pageOf(req?.limit ?? 100, req?.offset, 1000);
      const unaudited = staleSkillIds(db, ctx.settings.get().audit.specProfile).length;
      return { ...auditSummaryPage(db, min, limit, offset), unaudited };
    },
    'audit.suppress': async (req) => {
      if (!scopes.includes(req?.scope))
        throw new CuratorError('INVALID_ARGUMENT', `scope is one of ${scopes.join(', ')}`);
      const reason = typeof req.reason === 'string' ? req.reason.trim() : '';
      if (reason.length < 3)
        throw new CuratorError(
          'INVALID_ARGUMENT',
          'Say why this finding is not a problem (a reason is kept with the suppression)',
        );
      const f = findingById(db, req.findingId);
      if (!f)
        throw new CuratorError(
          'NOT_FOUND',
          `No finding #${req.findingId} (the skill may have been audited again since)`,
        );
      const contentHash = db
        .prepare('SELECT content_hash FROM skills WHERE id = ?')
        .pluck()
        .get(f.skillId) as string;
      const s = insertSuppression(db, {
        scope: req.scope,
        rule_id: f.ruleId,
        skill_id: req.scope === 'rule' ? null : f.skillId,
        fingerprint: req.scope === 'finding' ? f.fingerprint : null,
        content_sha256:
          req.scope === 'finding' ? f.fileSha256 : req.scope === 'skill-rule' ? contentHash : null,
        reason: reason.slice(0, 2000),
        created_at: ctx.clock().toISOString(),
      });
      ctx.events.emit({ type: 'library.changed', reason: 'audit' });
      return s;
    },
    'audit.unsuppress': async (req) => {
      const removed =
        db.prepare('DELETE FROM audit_suppressions WHERE id = ?').run(req?.suppressionId).changes > 0;
      if (removed) ctx.events.emit({ type: 'library.changed', reason: 'audit' });
      return { removed };
    },
    'audit.rules': async () => auditRules,
    'audit.review': async (req) => {
      if (
        req?.skillIds !== undefined &&
        (!Array.isArray(req.skillIds) || req.skillIds.some((id) => !Number.isInteger(id)))
      )
        throw new CuratorError('INVALID_ARGUMENT', 'skillIds is a list of skill ids');
      reviewClient(ctx); // refuse to start a job that cannot ask anything
      return ctx.jobs.start(AUDIT_REVIEW_JOB, { skillIds: req?.skillIds, force: !!req?.force });
    },
    'audit.report': async (req) => {
      if (!['sarif', 'json', 'md'].includes(req?.format))
        throw new CuratorError('INVALID_ARGUMENT', 'format is sarif, json or md');
      const min = req.minSeverity ? checkSeverity(req.minSeverity, 'minSeverity') : 'info';
      const ids =
        req.skillIds ??
        (db.prepare('SELECT skill_id FROM audit_state ORDER BY skill_id').pluck().all() as number[]);
      const names = db.prepare('SELECT name FROM skills WHERE id = ?').pluck();
      const skills = ids.map((id) => ({
        skillId: id,
        name: (names.get(id) as string | undefined) ?? `#${id}`,
        findings: findingsOf(db, [id]).filter((f) => severityRank(f.severity) >= severityRank(min)),
      }));
      const text = auditReport(req.format, skills, String(AUDIT_RULES_VERSION));
      const fileName = `audit.${req.format === 'sarif' ? 'sarif' : req.format}`;
      if (req.path === undefined) return { fileName, text };
      return { fileName, text, path: await writeNewFile(req.path, text, !!req.overwrite) };
    },
  };
}
