// The audit's review queue (#/audit): unsuppressed findings worst first, one at a time, keyboard first like the
// Review queue (j next, k back, o opens the skill at the line, s suppresses with a reason, u undoes it), and the
// audit of the whole library with progress and Cancel.
import { useEffect, useState } from 'react';
import type { AuditSuppression } from '../../../shared/api/audit';
import type { ApiErrorData } from '../../../shared/errors';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { isTyping } from '../app/keys';
import { navigate, routeHref } from '../app/router';
import { showToast } from '../app/toasts';
import { useApi } from '../app/use-api';
import { AuditRunButton } from './AuditRunButton';
import { FileTextView } from './FileTextView';
import { FindingBody, FindingHead } from './FindingItem';
import { useFindingQueue, type QueuedFinding } from './finding-queue';
import { useRuleTitles } from './rule-titles';
import { SuppressForm } from './SuppressForm';
import './audit.css';

/** The findings a new suppression holds for, as the core decides for these scopes on unchanged content. */
const heldBy = (s: AuditSuppression, first: QueuedFinding) => (f: QueuedFinding) =>
  f.ruleId === s.ruleId &&
  (s.scope === 'rule' || (f.skillId === s.skillId && (s.scope === 'skill-rule' || f.id === first.id)));

export function AuditScreen() {
  const client = useClient();
  const queue = useFindingQueue(client);
  const list = useApi('audit.list', { minSeverity: 'low', limit: 1 });
  const titleOf = useRuleTitles();
  const [at, setAt] = useState(0);
  const [suppressing, setSuppressing] = useState(false);
  const current = queue.items[Math.min(at, queue.items.length - 1)];
  const { items, done, more } = queue;

  useEffect(() => {
    if (at >= items.length - 2 && !done) void more();
  }, [at, items.length, done, more]);
  // After an undo the queue loads again; the finding put back is the one shown once it is there.
  const [focusId, setFocusId] = useState<number | null>(null);
  useEffect(() => {
    if (focusId === null) return;
    const i = items.findIndex((f) => f.id === focusId);
    if (i >= 0) {
      setAt(i);
      setFocusId(null);
    } else if (done) setFocusId(null);
  }, [focusId, items, done]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey || !current) return;
      if (e.key === 'j') setAt((i) => Math.min(i + 1, Math.max(0, items.length - 1)));
      else if (e.key === 'k') setAt((i) => Math.max(0, i - 1));
      else if (e.key === 'o') navigate({ screen: 'skill', id: current.skillId, findingId: current.id });
      else if (e.key === 's') {
        e.preventDefault();
        setSuppressing(true);
      } else return;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [current, items.length]);
  useEffect(() => setSuppressing(false), [current?.id]);

  const suppressed = (s: AuditSuppression) => {
    const finding = current!;
    setSuppressing(false);
    queue.drop(heldBy(s, finding));
    setAt((i) => Math.max(0, Math.min(i, queue.items.filter((f) => !heldBy(s, finding)(f)).length - 1)));
    showToast(`Suppressed ${finding.ruleId} in ${finding.skillName}`, async () => {
      await client.call('audit.unsuppress', { suppressionId: s.id });
      queue.restart();
      setFocusId(finding.id);
      showToast(`${finding.ruleId} in ${finding.skillName} is back in the queue`);
    });
  };
  const unaudited = list.data?.unaudited ?? 0;
  return (
    <div className="audit-queue">
      <div className="row wrap toolbar">
        <h1>Audit findings</h1>
        <span className="muted small" data-testid="audit-queue-count">
          {queue.items.length === 0 && queue.done
            ? 'Nothing to review'
            : `${at + 1 > queue.items.length ? queue.items.length : at + 1} of ${queue.items.length}${queue.done ? '' : '+'} unsuppressed findings, worst first`}
          {unaudited > 0 && ` · ${unaudited.toLocaleString()} skills not audited on their current content`}
        </span>
        <span className="spacer" />
        <span className="muted small keys">j next · k previous · o open · s suppress · u undo</span>
      </div>
      <AuditRunButton
        request={{}}
        label="Run audit"
        title="Audit every skill not audited on its current content and rules"
        onFinished={() => {
          queue.restart();
          list.reload();
          setAt(0);
        }}
      />
      <ErrorNote error={(queue.error as ApiErrorData | null) ?? list.error} />
      {!current ? (
        <section className="panel">
          <p className="muted">
            {queue.loading ? 'Finding the findings…' : 'No unsuppressed finding at low or above. '}
            {!queue.loading && <a href="#/library">Back to the library</a>}
          </p>
        </section>
      ) : (
        <section
          className="panel queue-item"
          aria-label="Finding"
          data-testid="queue-finding"
          data-finding-id={current.id}
        >
          <div className="row wrap">
            <a href={routeHref({ screen: 'skill', id: current.skillId, findingId: current.id })}>
              <strong>{current.skillName}</strong>
            </a>
            <FindingHead finding={current} title={titleOf(current.ruleId)} />
          </div>
          <div className="finding-detail">
            <FindingBody finding={current} />
          </div>
          <FileTextView key={current.id} skillId={current.skillId} path={current.file} line={current.line} />
          <div className="row wrap">
            <button onClick={() => setAt((i) => Math.min(i + 1, queue.items.length - 1))} title="Skip (j)">
              Next
            </button>
            <button
              onClick={() => navigate({ screen: 'skill', id: current.skillId, findingId: current.id })}
              title="Open the skill at this line (o)"
            >
              Open skill
            </button>
            {!suppressing && (
              <button onClick={() => setSuppressing(true)} title="Suppress with a reason (s)">
                Suppress…
              </button>
            )}
          </div>
          {suppressing && (
            <SuppressForm finding={current} onCancel={() => setSuppressing(false)} onDone={suppressed} />
          )}
        </section>
      )}
    </div>
  );
}
