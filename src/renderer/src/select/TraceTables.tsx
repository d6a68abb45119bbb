// The numbers behind a selection: the nodes' In/Out/Cross here; candidates and stage tables in their own files.
import { terms } from './glossary';
import type { TraceView } from './trace-view';
import { fmt } from './trace-view';

export { CandidatesTable } from './CandidatesTable';
export { StageTables } from './StageTables';
export type { SkillEdit } from './CandidateEditor';

export function NodesTable({ trace }: { trace: TraceView }) {
  const states = trace.parse?.states ?? [];
  return (
    <table className="table" data-testid="nodes-table">
      <thead>
        <tr>
          <th>Node</th>
          <th>State</th>
          <th title={terms.in}>In</th>
          <th title={terms.out}>Out</th>
          <th title={terms.cross}>Cross</th>
          <th title={terms.split}>Split</th>
        </tr>
      </thead>
      <tbody>
        {trace.nodes.map((node) => (
          <tr key={node.i}>
            <td>s{node.i}</td>
            <td className="small">{states[node.i] ?? ''}</td>
            <td className="num">{fmt(node.in, 2)}</td>
            <td className="num">{fmt(node.out, 2)}</td>
            <td className="num">{fmt(node.cross, 2)}</td>
            <td>{node.split ? <strong>split</strong> : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
