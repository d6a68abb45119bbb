// The audit's severity as a badge: a finding's, or a skill's worst unsuppressed one in the Library list.
import type { Severity } from '../../../shared/api/audit';
import './audit.css';

export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <span className={`badge sev-${severity}`} data-severity={severity}>
      {severity}
    </span>
  );
}

/**
 * A list row's audit: its worst unsuppressed finding above info, nothing when clean, "not audited" when never
 * audited (the import audits what it brings in, so this is a library from before the audit, or a cancelled run).
 */
export function AuditWorstBadge({
  worst,
  auditedAt,
}: {
  worst?: Severity | null;
  auditedAt?: string | null;
}) {
  if (auditedAt === undefined) return null;
  if (auditedAt === null)
    return (
      <span
        className="badge sev-unaudited"
        data-audit="unaudited"
        title="Not audited yet (Audit → Run audit)"
      >
        not audited
      </span>
    );
  if (!worst || worst === 'info') return null;
  return (
    <span
      className={`badge sev-${worst}`}
      data-audit={worst}
      title={`Audit: worst unsuppressed finding is ${worst}`}
    >
      audit: {worst}
    </span>
  );
}
