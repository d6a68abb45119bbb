// "Parse 412 unparsed" from the Library: the estimate first; above the threshold (parse-words) it asks before
// starting, below it starts at once and says what it will cost.
import { useState } from 'react';
import type { ParseEstimate } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { showToast } from '../app/toasts';
import { useAction } from '../app/use-api';
import { confirmAbove, estimateWords, needsConfirmation } from './parse-words';
import { useRunningParse } from './running-parse';

export function ParseUnparsedButton({ unparsed }: { unparsed: number }) {
  const client = useClient();
  const action = useAction();
  const [asking, setAsking] = useState<ParseEstimate | null>(null);
  // While a parse runs, the button shows its progress instead of offering a second one the core would refuse.
  const [running, started] = useRunningParse();
  if (running)
    return (
      <a
        className="button-like"
        href="#/jobs"
        data-testid="parse-running"
        title="Follow or cancel it in Jobs"
      >
        Parsing{running.progress.total > 0 ? ` ${running.progress.done} / ${running.progress.total}` : ''}…
      </a>
    );
  if (unparsed === 0 && !asking) return null;
  const start = async (estimate: ParseEstimate) => {
    setAsking(null);
    const job = await action.run(() => client.call('parse.skills', { only: 'unparsed' }));
    if (!job) return;
    started(job);
    showToast(`Parsing ${estimate.toSend} unparsed skills started: ${estimateWords(estimate)}`);
  };
  const begin = async () => {
    const estimate = await action.run(() => client.call('parse.estimate', { only: 'unparsed' }));
    if (!estimate) return;
    if (needsConfirmation(estimate)) setAsking(estimate);
    else await start(estimate);
  };
  return (
    <>
      <button
        data-testid="parse-unparsed"
        disabled={action.busy || asking !== null}
        onClick={() => void begin()}
        title="Parse the skills that have no states yet, with the LLM in Settings"
      >
        Parse {unparsed} unparsed
      </button>
      {asking && (
        <div className="bulk-confirm parse-confirm" role="alertdialog" aria-label="Confirm parse">
          <p>
            Parse {asking.toSend} unparsed skill{asking.toSend === 1 ? '' : 's'}? This is above the{' '}
            {asking.cost > confirmAbove.cost
              ? `$${confirmAbove.cost.toFixed(2)}`
              : `${confirmAbove.skills}-skill`}{' '}
            line for starting without asking.
          </p>
          <p data-testid="parse-estimate">{estimateWords(asking)}</p>
          <div className="row">
            <button className="primary" onClick={() => void start(asking)}>
              Parse {asking.toSend} skills
            </button>
            <button onClick={() => setAsking(null)}>Cancel</button>
          </div>
        </div>
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </>
  );
}
