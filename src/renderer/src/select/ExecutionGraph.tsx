// The execution graph as SVG: states on a line, each skill an arc from its source to its target state; each stage's
// winner, runner-up and the gold skills labelled on their own edges (graph-layout.ts keeps labels apart), split points
// marked, stages shaded with headers cut to fit (the full text in their tooltip), dropped skills listed with the reason.
import { useMemo } from 'react';
import { terms } from './glossary';
import { fitText, layoutGraph, measureText, nodeRadius, type GraphEdgeInput } from './graph-layout';
import { edgeRoles, type EdgeRole } from './edge-roles';
import type { TraceView } from './trace-view';
import { useWidth } from './use-width';
import { fmt } from './trace-view';

const labelFont = '600 12px';
const headerFont = '12px';

function edgeLabel(name: string, w: number | null, role: EdgeRole, gold: boolean): string | null {
  if (!role.won.length && !role.second.length && !gold) return null;
  const parts = [`${gold ? '★ ' : ''}${name}`, `w ${fmt(w, 2)}`];
  if (role.won.length) parts.push(`wins stage ${role.won.map((s) => s + 1).join(', ')}`);
  else if (role.second.length) parts.push(`2nd in stage ${role.second.map((s) => s + 1).join(', ')}`);
  return parts.join(' · ');
}

export function ExecutionGraph({ trace, gold }: { trace: TraceView; gold: ReadonlySet<string> }) {
  const n = trace.n;
  const measureLabel = useMemo(() => measureText(labelFont), []);
  const measureHeader = useMemo(() => measureText(headerFont), []);
  const [box, boxWidth] = useWidth<HTMLDivElement>(900);
  const roles = edgeRoles(trace);
  const dropped = trace.candidates.filter((c) => c.dropped !== null);
  const droppedList = dropped.length > 0 && (
    <details className="graph-dropped" data-testid="graph-dropped">
      <summary className="small">
        {dropped.length} skill{dropped.length === 1 ? '' : 's'} dropped from the graph
      </summary>
      <ul className="small">
        {dropped.map((c) => (
          <li key={c.index}>
            {gold.has(c.name) && <span className="badge gold">gold</span>} {c.name}: {c.dropped!.reason}
          </li>
        ))}
      </ul>
    </details>
  );
  const open = trace.candidates.filter((c) => c.unplaced);
  const openList = open.length > 0 && (
    <p className="small graph-open" data-testid="graph-open">
      Not drawn, {open.length} light edge{open.length === 1 ? '' : 's'} left unaligned (
      {open.map((c) => c.name).join(', ')}): together they weigh {fmt(open[0]!.unplaced!.openWeight)} in w,
      less than the smallest split margin {fmt(open[0]!.unplaced!.smallestMargin)}, so they could not change
      the stages.
    </p>
  );
  if (n < 2)
    return (
      <>
        <p className="muted" data-testid="graph-empty">
          No graph: this run has {n === 0 ? 'no task parse' : 'a single state'}, so the variant ranks the
          candidates instead.
        </p>
        {droppedList}
        {openList}
      </>
    );

  const inGraph = trace.candidates.filter((c) => c.src !== null && c.tgt !== null && c.dropped === null);
  const inputs: GraphEdgeInput[] = inGraph.map((c) => ({
    candidate: c.index,
    src: c.src!,
    tgt: c.tgt!,
    label: edgeLabel(c.name, c.w, roles.get(c.index)!, gold.has(c.name)),
  }));
  const layout = layoutGraph(n, inputs, measureLabel, Math.max(480, boxWidth));
  const { x, baseline } = layout;
  const states = trace.parse?.states ?? [];
  // Labelled edges are drawn last so they sit on top.
  const ordered = [...layout.edges].sort((a, b) => Number(a.label !== null) - Number(b.label !== null));

  return (
    <div ref={box} className="graph-box">
      <svg
        className="graph"
        width="100%"
        viewBox={`0 0 ${layout.width} ${layout.height}`}
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
        {trace.stages.map((stage) => {
          const left = x(stage.from) - nodeRadius - 4;
          const right = x(stage.to) + nodeRadius + 4;
          const winner = stage.winner !== null ? (trace.candidates[stage.winner]?.name ?? '') : '';
          // Neighbouring stage boxes overlap around their shared node (the later one drawn on top): a header keeps
          // clear of both neighbours' boxes.
          const room = x(stage.to) - x(stage.from) - 2 * (nodeRadius + 4) - 8;
          return (
            <g key={`stage-${stage.index}`} data-testid="graph-stage" data-winner={winner}>
              <title>
                Stage {stage.index + 1} (s{stage.from} → s{stage.to}): {stage.tau}
                {winner ? ` — picked ${winner}` : ''}
              </title>
              <rect
                x={left}
                y={6}
                width={right - left}
                height={baseline + 18}
                rx={10}
                className={stage.index % 2 === 0 ? 'graph-stage a' : 'graph-stage b'}
              />
              <text x={(left + right) / 2} y={22} textAnchor="middle" className="graph-stage-label">
                {fitText(`Stage ${stage.index + 1}: ${stage.tau}`, room, measureHeader)}
              </text>
              {winner && (
                <text x={(left + right) / 2} y={38} textAnchor="middle" className="graph-stage-winner">
                  {fitText(`→ ${winner}`, room, measureHeader)}
                </text>
              )}
            </g>
          );
        })}
        <line x1={x(0)} y1={baseline} x2={x(n - 1)} y2={baseline} className="graph-line" />
        {ordered.map((e) => {
          const c = trace.candidates[e.candidate]!;
          const role = roles.get(e.candidate)!;
          const win = role.won.length > 0;
          const classes = ['graph-edge'];
          if (win) classes.push('winner');
          else if (role.second.length) classes.push('runner-up');
          if (gold.has(c.name)) classes.push('gold');
          return (
            <g
              key={`edge-${e.candidate}`}
              className={classes.join(' ')}
              data-testid="graph-edge"
              data-skill={c.name}
              data-won={role.won.join(' ')}
            >
              <title>
                {c.name}: s{c.src} → s{c.tgt}, w = σ(ρ) = {fmt(c.w)}, ρ = {fmt(c.rho)}
                {role.won.length ? ` — wins stage ${role.won.map((s) => s + 1).join(', ')}` : ''}
                {gold.has(c.name) ? ' — gold' : ''}
              </title>
              <path
                d={`M ${e.x1} ${e.y0} Q ${e.cx} ${e.cy} ${e.x2} ${e.y0}`}
                fill="none"
                strokeWidth={win ? 3.5 : role.second.length ? 2 : 1.2}
                markerEnd={win ? 'url(#arrow-win)' : 'url(#arrow)'}
              />
            </g>
          );
        })}
        {/* Labels above every arc, so no later arc is drawn over one. */}
        {layout.edges
          .filter((e) => e.labelAt)
          .map((e) => {
            const c = trace.candidates[e.candidate]!;
            const role = roles.get(e.candidate)!;
            const kind = role.won.length ? 'winner' : gold.has(c.name) ? 'gold' : 'runner-up';
            return (
              <g key={`label-${e.candidate}`}>
                <rect
                  x={e.labelBox!.x}
                  y={e.labelBox!.y}
                  width={e.labelBox!.width}
                  height={e.labelBox!.height}
                  rx={3}
                  className="graph-edge-label-bg"
                />
                <text
                  x={e.labelAt!.x}
                  y={e.labelAt!.y}
                  textAnchor="middle"
                  className={`graph-edge-label ${kind}`}
                  data-testid="graph-edge-label"
                  data-skill={c.name}
                >
                  {e.label}
                </text>
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
              {node.split ? ` (split point. ${terms.split})` : ''}
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
      {droppedList}
      {openList}
    </div>
  );
}
