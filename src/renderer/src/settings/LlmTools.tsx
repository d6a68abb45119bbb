// The LLM endpoint's API key (stored by the host, never shown again), a connection test of the values as typed
// (before they are saved), and the endpoint's own list of models to pick from.
import { useState } from 'react';
import type { ConnectionReport } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';

export const modelListId = 'llm-models';

export function LlmTools({
  dirty,
  draft,
  onPickModel,
}: {
  dirty: boolean;
  /** The LLM settings as typed, saved or not: the test and the model list use these. */
  draft: Record<string, unknown>;
  onPickModel: (model: string) => void;
}) {
  const client = useClient();
  const action = useAction();
  const listing = useAction();
  const [key, setKey] = useState('');
  const [stored, setStored] = useState<boolean | null>(null);
  const [report, setReport] = useState<ConnectionReport | null>(null);
  const [models, setModels] = useState<{ models: string[]; message?: string } | null>(null);
  return (
    <div className="llm-tools">
      <div className="field">
        <label htmlFor="api-key">API key</label>
        <div className="row">
          <input
            id="api-key"
            type="password"
            autoComplete="off"
            placeholder="stored encrypted; never shown"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
          <button
            disabled={action.busy}
            onClick={async () => {
              const answer = await action.run(() => client.call('llm.setApiKey', { apiKey: key || null }));
              if (answer) {
                setStored(answer.stored);
                setKey('');
              }
            }}
          >
            {key ? 'Store key' : 'Clear key'}
          </button>
          {stored !== null && (
            <span className="muted small">{stored ? 'Key stored.' : 'No key stored.'}</span>
          )}
        </div>
      </div>
      <div className="row wrap">
        <button
          disabled={action.busy}
          onClick={async () =>
            setReport((await action.run(() => client.call('llm.test', { llm: draft }))) ?? null)
          }
        >
          {action.busy ? 'Testing…' : dirty ? 'Test these values' : 'Test connection'}
        </button>
        <button
          disabled={listing.busy}
          onClick={async () =>
            setModels((await listing.run(() => client.call('llm.models', { llm: draft }))) ?? null)
          }
        >
          {listing.busy ? 'Asking…' : 'List the endpoint’s models'}
        </button>
        {models && models.models.length > 0 && (
          <select
            aria-label="Pick a model"
            value=""
            onChange={(e) => {
              if (e.target.value) onPickModel(e.target.value);
            }}
          >
            <option value="">Pick one of {models.models.length} models…</option>
            {models.models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        )}
        {dirty && <span className="muted small">Not saved yet: the test uses the values as typed.</span>}
      </div>
      <datalist id={modelListId}>
        {models?.models.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      {models?.message && <p className="muted small">{models.message}</p>}
      {report && (
        <div className={report.ok ? 'note ok' : 'error-note'} data-testid="llm-test">
          <strong>{report.ok ? 'Connected' : 'Not connected'}</strong>:{' '}
          {/* The message is a whole sentence that already names the model and the time. */}
          {report.message.replace(/^(Not connected|Connected):\s*/, '')}
        </div>
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
      <ErrorNote error={listing.error} onDismiss={listing.clearError} />
    </div>
  );
}
