// The LLM endpoint's API key (stored by the host, never shown again) and a connection test in plain words.
import { useState } from 'react';
import type { ConnectionReport } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';

export function LlmTools({ dirty }: { dirty: boolean }) {
  const client = useClient();
  const action = useAction();
  const [key, setKey] = useState('');
  const [stored, setStored] = useState<boolean | null>(null);
  const [report, setReport] = useState<ConnectionReport | null>(null);
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
      <div className="row">
        <button
          disabled={action.busy}
          onClick={async () => setReport((await action.run(() => client.call('llm.test', {}))) ?? null)}
          title={dirty ? 'Save first: the test uses the saved settings' : undefined}
        >
          {action.busy ? 'Testing…' : 'Test connection'}
        </button>
        {dirty && <span className="muted small">Save first: the test uses the saved settings.</span>}
      </div>
      {report && (
        <div className={report.ok ? 'note ok' : 'error-note'} data-testid="llm-test">
          <strong>{report.ok ? 'Connected' : 'Not connected'}</strong>: {report.message}
          {report.model && ` · model ${report.model}`}
          {report.latencyMs !== undefined && ` · ${report.latencyMs} ms`}
        </div>
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}
