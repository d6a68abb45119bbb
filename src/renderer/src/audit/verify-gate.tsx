// Verifying a skill the audit flagged asks first: the core refuses (CONFLICT with details.auditFindings) and this
// shows the findings by name, rule and place; Verify anyway sends the request again acknowledging them.
import { useCallback, useState } from 'react';
import type { VerifyAuditFinding } from '../../../shared/api/llm';
import type { ApiErrorData } from '../../../shared/errors';
import { asErrorData } from '../client/client';
import { routeHref } from '../app/router';
import { SeverityBadge } from './SeverityBadge';

/** The findings of an audit refusal of a verify, or null for any other error. */
export function auditRefusal(error: ApiErrorData): VerifyAuditFinding[] | null {
  const found = (error.details as { auditFindings?: unknown } | undefined)?.auditFindings;
  return error.code === 'CONFLICT' && Array.isArray(found) ? (found as VerifyAuditFinding[]) : null;
}

function VerifyAnywayConfirm({
  findings,
  onAnswer,
}: {
  findings: VerifyAuditFinding[];
  onAnswer(verify: boolean): void;
}) {
  const skills = new Set(findings.map((f) => f.skillId)).size;
  return (
    <div
      className="bulk-confirm"
      role="alertdialog"
      aria-label="Verify despite audit findings"
      data-testid="verify-audit-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onAnswer(false);
        e.stopPropagation();
      }}
    >
      <p>
        The audit found {findings.length} high or critical finding{findings.length === 1 ? '' : 's'} no one
        suppressed in {skills === 1 ? 'this skill' : `${skills} of these skills`}. Verify anyway?
      </p>
      <ul className="small">
        {findings.slice(0, 10).map((f) => (
          <li key={f.findingId}>
            <SeverityBadge severity={f.severity} />{' '}
            <a href={routeHref({ screen: 'skill', id: f.skillId, findingId: f.findingId })}>{f.name}</a>{' '}
            <code>{f.ruleId}</code> <span className="muted">at {f.where}</span>
          </li>
        ))}
        {findings.length > 10 && <li className="muted">and {findings.length - 10} more</li>}
      </ul>
      <div className="row">
        <button className="primary" onClick={() => onAnswer(true)}>
          Verify anyway
        </button>
        <button autoFocus onClick={() => onAnswer(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/**
 * `run(call)` calls `call(false)`; on an audit refusal it asks, and on yes calls `call(true)` (acknowledging).
 * Resolves undefined when the curator says no; other errors are thrown as they came.
 */
export function useVerifyGate() {
  const [asking, setAsking] = useState<{
    findings: VerifyAuditFinding[];
    answer(verify: boolean): void;
  } | null>(null);
  const run = useCallback(async <T,>(call: (acknowledge: boolean) => Promise<T>): Promise<T | undefined> => {
    try {
      return await call(false);
    } catch (e) {
      const findings = auditRefusal(asErrorData(e));
      if (!findings) throw e;
      const yes = await new Promise<boolean>((answer) => setAsking({ findings, answer }));
      setAsking(null);
      return yes ? call(true) : undefined;
    }
  }, []);
  const dialog = asking ? <VerifyAnywayConfirm findings={asking.findings} onAnswer={asking.answer} /> : null;
  return { run, dialog, asking: asking !== null };
}
