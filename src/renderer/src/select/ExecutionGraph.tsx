// The execution graph as SVG: states as nodes on a line, each skill an arc from its source to its target state with
// its weight, split points marked, stages shaded (METHOD.md "Graph", "Split points", "Stages").
import type { TraceView } from './trace-view';
import { fmt } from './trace-view';

const margin = 40;
const baseline = 190;
const nodeRadius = 13;

export function ExecutionGraph({ trace, width = 900 }: { trace: TraceView; width?: number }) {
  const n = trace.n;
  if (n < 2) {
    return (
      <p className="muted" data-testid="graph-empty">
        No graph: this run has {n === 0 ? 'no task parse' : 'a single state'}, so the variant ranks the
        candidates instead.
      </p>
    );
  }
  const gap = (width - 2 * margin) / (n - 1);
  const x = (i: number) => margin + i * gap;
  const winners = new Set(trace.answer.map((a) => a.candidate));
  const edges = trace.candidates.filter((c) => c.src !== null && c.tgt !== null);
  const maxW = Math.max(1e-9, ...edges.map((c) => c.w ?? 0));
  const states = trace.parse?.states ?? [];
  // Winners are drawn last so they sit on top; others are thin, labelled on hover.
  const ordered = [...edges].sort((a, b) => Number(winners.has(a.index)) - Number(winners.has(b.index)));

  return (
    <svg
      className="graph"
      width="100%"
      viewBox={`0 0 ${width} ${baseline + 70}`}
      role="img"
      aria-label="Execution graph"
      data-testid="execution-graph"
    >
      <defs>
        {['arrow', 'arrow-win'].map((id) => (
          <marker
            key={id}
            id={id}
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerUnits="userSpaceOnUse"
            markerWidth="10"
            markerHeight="10"
            orient="auto-start-reverse"
          >
            <path
              d="M 0 0 L 10 5 L 0 10 z"
              className={id === 'arrow' ? 'graph-arrow' : 'graph-arrow winner'}
            />
          </marker>
        ))}
      </defs>
      {trace.stages.map((stage) => (
        <g key={`stage-${stage.index}`} data-testid="graph-stage">
          <rect
            x={x(stage.from) - nodeRadius - 4}
            y={16}
            width={x(stage.to) - x(stage.from) + 2 * nodeRadius + 8}
            height={baseline + 24}
            rx={10}
            className={stage.index % 2 === 0 ? 'graph-stage a' : 'graph-stage b'}
          />
          <text
            x={(x(stage.from) + x(stage.to)) / 2}
            y={32}
            textAnchor="middle"
            className="graph-stage-label"
          >
            stage {stage.index + 1}
            {stage.winner !== null ? `: ${trace.candidates[stage.winner]?.name ?? ''}` : ''}
          </text>
        </g>
      ))}
      <line x1={x(0)} y1={baseline} x2={x(n - 1)} y2={baseline} className="graph-line" />
      {ordered.map((c) => {
        const x1 = x(c.src!);
        const x2 = x(c.tgt!);
        const span = Math.abs(c.tgt! - c.src!);
        const lift = Math.min(baseline - 70, 36 + span * ((baseline - 90) / Math.max(1, n - 1)));
        const mid = (x1 + x2) / 2;
        const top = baseline - nodeRadius - lift;
        const win = winners.has(c.index);
        const strokeWidth = 1 + 4 * ((c.w ?? 0) / maxW);
        return (
          <g
            key={`edge-${c.index}`}
            className={win ? 'graph-edge winner' : 'graph-edge'}
            data-testid="graph-edge"
            data-skill={c.name}
          >
            <title>
              {c.name}: s{c.src} → s{c.tgt}, w = σ(ρ) = {fmt(c.w)}, ρ = {fmt(c.rho)}
              {c.dropped ? ` (dropped: ${c.dropped.reason})` : ''}
            </title>
            <path
              d={`M ${x1} ${baseline - nodeRadius} Q ${mid} ${top} ${x2} ${baseline - nodeRadius}`}
              fill="none"
              strokeWidth={strokeWidth}
              strokeDasharray={c.dropped ? '4 4' : undefined}
              markerEnd={win ? 'url(#arrow-win)' : 'url(#arrow)'}
            />
            {win && (
              <text
                x={mid}
                y={(baseline - nodeRadius + top) / 2 - 4}
                textAnchor="middle"
                className="graph-edge-label"
              >
                {c.name} · w {fmt(c.w, 2)}
              </text>
            )}
          </g>
        );
      })}
      {Array.from(
        { length: n },
        (_, i) => trace.nodes[i] ?? { i, in: NaN, out: NaN, cross: NaN, split: false },
      ).map((node) => (
        <g key={`node-${node.i}`} data-testid={node.split ? 'graph-split' : 'graph-node'}>
          <title>
            s{node.i}: {states[node.i] ?? ''} — In {fmt(node.in, 2)}, Out {fmt(node.out, 2)}, Cross{' '}
            {fmt(node.cross, 2)}
            {node.split ? ' (split point)' : ''}
          </title>
          <circle
            cx={x(node.i)}
            cy={baseline}
            r={nodeRadius}
            className={node.split ? 'graph-node split' : 'graph-node'}
          />
          <text x={x(node.i)} y={baseline + 4} textAnchor="middle" className="graph-node-label">
            s{node.i}
          </text>
          {node.split && (
            <text x={x(node.i)} y={baseline + 32} textAnchor="middle" className="graph-split-label">
              split
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}
