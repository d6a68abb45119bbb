// The last selection runs made in the lab (or by an agent over MCP, which say so), newest first, each a link into the
// lab; an evaluation's runs are on the Evaluation screen.
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
  // An evaluation stores a run per task and variant: they would push the lab's own runs off this list.
  const runs = useApi('select.runs', { limit: 12, evaluations: false });
  const { reload } = runs;
  useEffect(() => reload(), [refresh, reload]);
  if (!runs.data?.length) return null;
  return (
    <details className="recent-runs small">
      <summary>Recent runs</summary>
      <ul data-testid="recent-runs">
        {runs.data.map((r) => (
          <li key={r.runId} data-run={r.runId} className={r.runId === current ? 'active' : undefined}>
            <a href={`#/select/${r.runId}`}>#{r.runId}</a> <span className="muted">{r.variant}</span>{' '}
            <ViaBadge via={r.via} /> <span title={r.task}>{r.task}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
