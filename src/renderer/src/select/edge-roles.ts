// Which stages each candidate won or came second in, read from the stage tables themselves, so the graph's highlighted
// edges always agree with them.
import type { TraceView } from './trace-view';

export interface EdgeRole {
  won: number[];
  second: number[];
}

export function edgeRoles(trace: TraceView): Map<number, EdgeRole> {
  const roles = new Map<number, EdgeRole>(trace.candidates.map((c) => [c.index, { won: [], second: [] }]));
  for (const stage of trace.stages) {
    if (stage.winner === null) continue;
    roles.get(stage.winner)?.won.push(stage.index);
    const second = stage.phi
      .filter((e) => e.candidate !== stage.winner && e.phi !== null)
      .sort((a, b) => b.phi! - a.phi! || a.candidate - b.candidate)[0];
    if (second) roles.get(second.candidate)?.second.push(stage.index);
  }
  return roles;
}
