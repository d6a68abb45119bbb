// The import report's audit: how many skills it audited, the findings per severity, and the flagged skills (high or
// critical) linking to their page, where the findings are.
import type { ImportReport } from '../../../shared/api';
import { severities } from '../../../shared/api/audit';
import { routeHref } from '../app/router';
import { SeverityBadge } from './SeverityBadge';

export function ImportAuditSummary({ audit }: { audit: NonNullable<ImportReport['audit']> }) {
  const found = [...severities].reverse().filter((s) => audit.findings[s] > 0);
  return (
    <div className="import-audit" data-testid="import-audit">
      <p className="small">
        <strong>Audit:</strong> {audit.audited.toLocaleString()} skill{audit.audited === 1 ? '' : 's'} audited
        {found.length === 0
          ? ', nothing found.'
          : `; findings: ${found.map((s) => `${audit.findings[s]} ${s}`).join(', ')}.`}{' '}
        <a href={routeHref({ screen: 'audit' })}>Review findings</a>
      </p>
      {audit.flaggedCount > 0 && (
        <details open data-testid="import-audit-flagged">
          <summary>
            Flagged ({audit.flaggedCount.toLocaleString()}): skills with a high or critical finding
          </summary>
          <ul>
            {audit.flagged.map((f) => (
              <li key={f.skillId}>
                <a href={routeHref({ screen: 'skill', id: f.skillId })}>{f.name}</a>{' '}
                <SeverityBadge severity={f.worst} />
              </li>
            ))}
          </ul>
          {audit.flaggedCount > audit.flagged.length && (
            <p className="muted small">
              The first {audit.flagged.length} are listed; the Audit screen lists them all.
            </p>
          )}
        </details>
      )}
    </div>
  );
}
