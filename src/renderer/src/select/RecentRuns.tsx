// The last stored selection runs, newest first, each a link into the lab; runs an agent asked for over MCP say so.
import { useEffect } from 'react';
import { useApi } from '../app/use-api';

export function ViaBadge({ via }: { via?: 'mcp' }) {
  if (via !== 'mcp') return null;
  return (
    <span
      className="badge"
      data-testid="via-mcp"
      title="An agent asked for this selection over the MCP server"
    >
      via MCP
    </span>
  );
}

/** `refresh` changes when the lab stores new runs, so they appear in the list. */
export function RecentRuns({ current, refresh }: { current?: number; refresh: string }) {
  const runs = useApi('select.runs', { limit: 12 });
  const { reload } = runs;
  useEffect(() => reload(), [refresh, reload]);
  if (!runs.data?.length) return null;
  return (
    <details className="recent-runs small">
      <summary>Recent runs</summary>
      <ul data-testid="recent-runs">
        {runs.data.map((r) => (
          <li key={r.runId} data-run={r.runId} className={r.runId === current ? 'active' : undefined}>
            <a href={`#/select/${r.runId}`}>#{r.runId}</a> <span className="muted">{r.variant}</span> {r.task}{' '}
            <ViaBadge via={r.via} />
          </li>
        ))}
      </ul>
    </details>
  );
}
