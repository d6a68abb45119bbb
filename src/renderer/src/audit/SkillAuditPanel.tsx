// The skill page's Audit section: the findings by file, each opening the file at its line; suppress and unsuppress
// with a reason; Re-audit this skill.
import { useEffect, useRef, useState } from 'react';
import type { StoredFinding } from '../../../shared/api/audit';
import { severityRank } from '../../../shared/api/audit';
import { ErrorNote } from '../app/ErrorNote';
import { useCuratorEvent } from '../app/context';
import { useApi } from '../app/use-api';
import { AuditRunButton } from './AuditRunButton';
import { FileTextView } from './FileTextView';
import { FindingItem } from './FindingItem';
import { useRuleTitles } from './rule-titles';
import { SeverityBadge } from './SeverityBadge';

/** Files in the order of their worst finding, findings worst first and by line. */
function byFile(findings: StoredFinding[]): [string, StoredFinding[]][] {
  const groups = new Map<string, StoredFinding[]>();
  const sorted = [...findings].sort(
    (a, b) =>
      Number(!!a.suppressed) - Number(!!b.suppressed) ||
      severityRank(b.severity) - severityRank(a.severity) ||
      (a.line ?? 0) - (b.line ?? 0),
  );
  for (const f of sorted) groups.set(f.file, [...(groups.get(f.file) ?? []), f]);
  return [...groups];
}

export function SkillAuditPanel({ skillId, findingId }: { skillId: number; findingId?: number }) {
  const audit = useApi('audit.skill', { skillId });
  const titleOf = useRuleTitles();
  const [open, setOpen] = useState<number | null>(findingId ?? null);
  const panel = useRef<HTMLElement>(null);
  // Sent here for one finding (the review queue's "open"): its file opens at its line, in view.
  useEffect(() => {
    if (findingId !== undefined) setOpen(findingId);
  }, [findingId]);
  const loaded = audit.data !== null;
  useEffect(() => {
    if (findingId !== undefined && loaded)
      panel.current?.querySelector(`[data-finding-id="${findingId}"]`)?.scrollIntoView({ block: 'start' });
  }, [findingId, loaded]);
  useCuratorEvent((event) => {
    if (event.type === 'library.changed') audit.reload();
  });
  const a = audit.data;
  const suppressed = a?.findings.filter((f) => f.suppressed).length ?? 0;
  const toReview = a?.findings.filter((f) => f.suppressionToReview).length ?? 0;
  const shown = a?.findings.find((f) => f.id === open) ?? null;
  const serious = a?.findings.some((f) => !f.suppressed && severityRank(f.severity) >= severityRank('high'));
  return (
    <section ref={panel} className="panel" aria-label="Audit" data-testid="skill-audit">
      <div className="row wrap">
        <h2>Audit</h2>
        {a?.worst && <SeverityBadge severity={a.worst} />}
        <span className="muted small" data-testid="audit-summary">
          {!a
            ? '…'
            : a.auditedAt === null
              ? 'Not audited yet.'
              : `${a.findings.length} finding${a.findings.length === 1 ? '' : 's'}, ${suppressed} suppressed${toReview ? `, ${toReview} to review again` : ''} · audited ${new Date(a.auditedAt).toLocaleString()}${a.stale ? ' (the skill or the rules changed since)' : ''}`}
        </span>
        <span className="spacer" />
        {serious && (
          <AuditRunButton
            review
            request={{ skillIds: [skillId] }}
            label="Second opinion"
            title="Ask the configured LLM whether each high or critical finding is real (it suppresses nothing)"
          />
        )}
        <AuditRunButton
          request={{ skillIds: [skillId], force: true }}
          label="Re-audit"
          title="Audit this skill again now"
        />
      </div>
      <ErrorNote error={audit.error} />
      {a && a.auditedAt !== null && a.findings.length === 0 && (
        <p className="muted small">Nothing found in any of its files.</p>
      )}
      {a &&
        byFile(a.findings).map(([file, findings]) => (
          <div key={file} className="audit-file-group" data-file={file}>
            <h3>{file}</h3>
            <ul className="audit-findings">
              {findings.map((f) => (
                <FindingItem
                  key={f.id}
                  finding={f}
                  title={titleOf(f.ruleId)}
                  shown={f.id === open}
                  onOpen={() => setOpen(f.id === open ? null : f.id)}
                  onChanged={audit.reload}
                />
              ))}
            </ul>
            {shown && shown.file === file && (
              <FileTextView skillId={skillId} path={shown.file} line={shown.line} />
            )}
          </div>
        ))}
    </section>
  );
}
