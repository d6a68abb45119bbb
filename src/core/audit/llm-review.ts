// The optional LLM second opinion: for each unsuppressed high or critical finding, the configured endpoint reads the
// rule, the matched line and the lines around it, and answers confirm or likely benign with a reason. The answer is
// stored beside the finding and shown next to the rule's verdict; it never suppresses anything, so a critical finding
// the LLM calls benign still holds the gate until a curator suppresses it with their own reason.
import type { AuditReviewResult } from '../../shared/api/audit';
import { severityRank } from '../../shared/api/audit';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { loadPackages, readPackage } from '../export/package-reader';
import { createLlmClient } from '../llm/client';
import { newBoundary } from '../llm/prompts';
import { parseLlmSettings } from '../llm/settings';
import type { LlmClient } from '../llm/ports';
import { findingsOf } from './audit-store';
import {
  AUDIT_REVIEW_PROMPT_VERSION,
  buildReviewMessages,
  contextLines,
  parseReviewAnswer,
} from './llm-review-prompt';
import { auditRules } from './rules-catalog';

export const AUDIT_REVIEW_JOB = 'library.audit-review';

export interface AuditReviewRequest {
  skillIds?: number[];
  /** Ask again where an answer is stored for the same finding and file content. */
  force?: boolean;
}

export function reviewClient(ctx: CoreContext): LlmClient {
  return createLlmClient({
    settings: parseLlmSettings(ctx.settings.get().llm),
    apiKey: async () => (await ctx.secrets.getApiKey()) ?? undefined,
    logger: ctx.logger,
    clock: ctx.clock,
  });
}

interface Target {
  skillId: number;
  fingerprint: string;
  fileSha256: string;
  file: string;
  line: number | null;
  excerpt: string;
  severity: string;
  ruleId: string;
}

/** The unsuppressed high and critical findings of the skills, without a stored answer unless `force`. */
function targets(ctx: CoreContext, req: AuditReviewRequest): Target[] {
  const ids =
    req.skillIds ??
    (ctx.db
      .prepare("SELECT DISTINCT skill_id FROM audit_findings WHERE severity IN ('high', 'critical')")
      .pluck()
      .all() as number[]);
  const stored = ctx.db.prepare(
    'SELECT 1 FROM audit_reviews WHERE skill_id = ? AND fingerprint = ? AND file_sha256 = ? AND error IS NULL',
  );
  const row = ctx.db.prepare('SELECT fingerprint, file_sha256 FROM audit_findings WHERE id = ?');
  return findingsOf(ctx.db, ids)
    .filter((f) => f.suppressed === null && severityRank(f.severity) >= severityRank('high'))
    .map((f) => {
      const r = row.get(f.id) as { fingerprint: string; file_sha256: string };
      return { ...f, fingerprint: r.fingerprint, fileSha256: r.file_sha256 };
    })
    .filter((t) => req.force || !stored.get(t.skillId, t.fingerprint, t.fileSha256));
}

export function registerAuditReviewJob(ctx: CoreContext): void {
  ctx.jobs.register<AuditReviewRequest>(AUDIT_REVIEW_JOB, async (req, job): Promise<AuditReviewResult> => {
    const client = reviewClient(ctx);
    const todo = targets(ctx, req);
    const result: AuditReviewResult = { reviewed: 0, confirmed: 0, likelyBenign: 0, failed: 0 };
    const message = `Asking ${client.settings.model} about ${todo.length} finding${todo.length === 1 ? '' : 's'}`;
    job.report({ done: 0, total: todo.length, message });
    const save = ctx.db.prepare(
      `INSERT INTO audit_reviews (skill_id, fingerprint, file_sha256, verdict, reason, error, model, prompt_version, reviewed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (skill_id, fingerprint, file_sha256) DO UPDATE SET verdict = excluded.verdict,
         reason = excluded.reason, error = excluded.error, model = excluded.model,
         prompt_version = excluded.prompt_version, reviewed_at = excluded.reviewed_at`,
    );
    const texts = new Map<string, string>();
    for (const [i, t] of todo.entries()) {
      if (job.signal.aborted)
        throw new CuratorError('CANCELLED', `Review cancelled after ${i} findings; resume it for the rest`);
      const rule = auditRules.find((r) => r.id === t.ruleId);
      const key = `${t.skillId}\u0000${t.file}`;
      if (!texts.has(key)) texts.set(key, await fileText(ctx, t.skillId, t.file));
      const name = ctx.db.prepare('SELECT name FROM skills WHERE id = ?').pluck().get(t.skillId) as string;
      const messages = buildReviewMessages(
        {
          ruleTitle: rule?.title ?? t.ruleId,
          ruleWhy: rule?.why ?? '',
          severity: t.severity,
          skillName: name,
          file: t.file,
          line: t.line,
          excerpt: t.excerpt,
          context: contextLines(texts.get(key)!, t.line),
        },
        newBoundary(),
      );
      const at = ctx.clock().toISOString();
      const answer = await client
        .complete(messages, { signal: job.signal, maxTokens: 200 })
        .then((c) => ({ model: c.model, parsed: parseReviewAnswer(c.text) }))
        .catch((error: unknown) => {
          if (job.signal.aborted) throw error;
          return {
            model: client.settings.model,
            parsed: { ok: false as const, error: (error as Error).message },
          };
        });
      const p = answer.parsed;
      save.run(
        t.skillId,
        t.fingerprint,
        t.fileSha256,
        p.ok ? p.verdict : null,
        p.ok ? p.reason : '',
        p.ok ? null : p.error.slice(0, 500),
        answer.model,
        AUDIT_REVIEW_PROMPT_VERSION,
        at,
      );
      result.reviewed++;
      if (!p.ok) result.failed++;
      else if (p.verdict === 'confirm') result.confirmed++;
      else result.likelyBenign++;
      job.report({ done: i + 1, total: todo.length, message });
    }
    ctx.events.emit({ type: 'library.changed', reason: 'audit' });
    return result;
  });
}

/** The text of one package file, as the audit read it (an unreadable file gives no context, only the match). */
async function fileText(ctx: CoreContext, skillId: number, file: string): Promise<string> {
  const [pkg] = loadPackages(ctx.db, [skillId]).packages;
  if (!pkg) return '';
  if (file === 'SKILL.md' && !pkg.files.some((f) => f.path === file)) return pkg.fullText;
  const { files } = await readPackage({ ...pkg, files: pkg.files.filter((f) => f.path === file) });
  const found = files.find((f) => f.path === file);
  return found ? Buffer.from(found.bytes).toString('utf8') : '';
}
