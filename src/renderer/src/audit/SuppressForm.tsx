// Suppressing a finding the curator judged harmless: a reason is required (it is kept and shown), and the scope says
// how far it reaches: this finding, this rule for this skill, or this rule in the whole library.
import { useState } from 'react';
import type { AuditSuppression, StoredFinding, SuppressionScope } from '../../../shared/api/audit';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';

const scopes: [SuppressionScope, string][] = [
  ['finding', 'This finding (until its file changes)'],
  ['skill-rule', 'This rule for this skill (until the skill changes)'],
  ['rule', 'This rule, library-wide'],
];

export function SuppressForm({
  finding,
  initialReason = '',
  onDone,
  onCancel,
}: {
  finding: StoredFinding;
  initialReason?: string;
  onDone(made: AuditSuppression): void;
  onCancel(): void;
}) {
  const client = useClient();
  const action = useAction();
  const [reason, setReason] = useState(initialReason);
  const [scope, setScope] = useState<SuppressionScope>('finding');
  const ok = reason.trim().length >= 3;
  const submit = async () => {
    const done = await action.run(() =>
      client.call('audit.suppress', { findingId: finding.id, scope, reason: reason.trim() }),
    );
    if (done) onDone(done);
  };
  return (
    <form
      className="audit-suppress"
      aria-label="Suppress finding"
      onSubmit={(e) => {
        e.preventDefault();
        if (ok) void submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
        e.stopPropagation();
      }}
    >
      <label>
        Why is this not a problem? <span className="muted small">(required, kept with the suppression)</span>
        <textarea
          name="reason"
          rows={2}
          autoFocus
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <fieldset className="row wrap">
        <legend className="small">Suppress</legend>
        {scopes.map(([value, label]) => (
          <label key={value} className="small">
            <input
              type="radio"
              name="scope"
              value={value}
              checked={scope === value}
              onChange={() => setScope(value)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <div className="row">
        <button type="submit" className="primary" disabled={!ok || action.busy}>
          Suppress
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </form>
  );
}
