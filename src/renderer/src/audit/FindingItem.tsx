// One audit finding: severity, rule, the why sentence, the excerpt as plain text, how it was seen, and whether a
// suppression holds for it (with its reason) or one made on other content must be reviewed again.
import { useState } from 'react';
import type { AuditSuppression, StoredFinding } from '../../../shared/api/audit';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';
import { SeverityBadge } from './SeverityBadge';
import { SuppressForm } from './SuppressForm';

const scopeWords: Record<AuditSuppression['scope'], string> = {
  finding: 'this finding',
  'skill-rule': 'this rule for this skill',
  rule: 'this rule library-wide',
};

export const whereOf = (f: StoredFinding) => `${f.file}${f.line !== null ? `:${f.line}` : ''}`;

export function FindingHead({ finding, title }: { finding: StoredFinding; title?: string }) {
  return (
    <span className="row wrap">
      <SeverityBadge severity={finding.severity} />
      <code>{finding.ruleId}</code>
      {title && <strong>{title}</strong>}
      <span className="muted small">{whereOf(finding)}</span>
    </span>
  );
}

export function FindingBody({ finding }: { finding: StoredFinding }) {
  return (
    <>
      <span className="small">{finding.why}</span>
      <code className="audit-excerpt" data-testid="finding-excerpt">
        {finding.excerpt}
      </code>
      {finding.seenAfter && <span className="muted small">seen {finding.seenAfter}</span>}
      {finding.review && <SecondOpinion finding={finding} />}
    </>
  );
}

/** The LLM's answer beside the rule's verdict; it decides nothing, so a benign call on a critical one says so. */
function SecondOpinion({ finding }: { finding: StoredFinding }) {
  const r = finding.review!;
  if (r.verdict === null)
    return (
      <span className="muted small" data-testid="second-opinion" data-verdict="none">
        Second opinion ({r.model}): no usable answer — {r.error}
      </span>
    );
  return (
    <span className="small" data-testid="second-opinion" data-verdict={r.verdict}>
      Second opinion ({r.model}):{' '}
      <strong>{r.verdict === 'confirm' ? 'confirms the finding' : 'likely benign'}</strong> — {r.reason}
      {r.verdict === 'likely-benign' && !finding.suppressed && (
        <span className="muted">
          {' '}
          (the finding holds{finding.severity === 'critical' ? ', and keeps the gate closed,' : ''} until you
          suppress it with your own reason)
        </span>
      )}
    </span>
  );
}

export function FindingItem({
  finding,
  title,
  shown,
  onOpen,
  onChanged,
}: {
  finding: StoredFinding;
  title?: string;
  shown: boolean;
  onOpen(): void;
  onChanged(): void;
}) {
  const client = useClient();
  const action = useAction();
  const [suppressing, setSuppressing] = useState(false);
  const held = finding.suppressed;
  const review = finding.suppressionToReview;
  const unsuppress = async (s: AuditSuppression) => {
    const done = await action.run(() => client.call('audit.unsuppress', { suppressionId: s.id }));
    if (done) onChanged();
  };
  return (
    <li
      className={`audit-finding${held ? ' suppressed' : ''}${shown ? ' shown' : ''}`}
      data-testid="audit-finding"
      data-finding-id={finding.id}
      data-rule={finding.ruleId}
      data-suppressed={held ? 'true' : 'false'}
    >
      <button className="finding-open" onClick={onOpen} title="Show the file at this line">
        <FindingHead finding={finding} title={title} />
        <FindingBody finding={finding} />
      </button>
      {held && (
        <p className="small" data-testid="suppressed-note">
          <span className="badge status-verified">suppressed</span> {scopeWords[held.scope]}:{' '}
          <em>{held.reason}</em>{' '}
          <button className="link" disabled={action.busy} onClick={() => void unsuppress(held)}>
            Unsuppress
          </button>
        </p>
      )}
      {review && (
        <p className="warn-text small" data-testid="review-suppression">
          Suppressed before ({scopeWords[review.scope]}: <em>{review.reason}</em>), but the content changed
          since: review it again.{' '}
          <button className="link" disabled={action.busy} onClick={() => void unsuppress(review)}>
            Drop the old suppression
          </button>
        </p>
      )}
      {!held && !suppressing && (
        <button className="ghost small" onClick={() => setSuppressing(true)}>
          {review ? 'Suppress again…' : 'Suppress…'}
        </button>
      )}
      {suppressing && (
        <SuppressForm
          finding={finding}
          initialReason={review?.reason ?? ''}
          onCancel={() => setSuppressing(false)}
          onDone={() => {
            setSuppressing(false);
            onChanged();
          }}
        />
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </li>
  );
}
