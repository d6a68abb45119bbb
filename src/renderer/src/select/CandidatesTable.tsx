// The candidates of a selection: recall score, ρ, w, the edge (or why it was dropped) and the skill's states, with
// gold and answer marks and a what-if editor per row.
import { useState } from 'react';
import { CandidateEditor, type SkillEdit } from './CandidateEditor';
import { terms } from './glossary';
import type { TraceView } from './trace-view';
import { fmt } from './trace-view';
import type { ScoreEdit } from './what-if';

export function CandidatesTable({
  trace,
  gold,
  onSkillEdit,
  onScoreEdit,
}: {
  trace: TraceView;
  gold: ReadonlySet<string>;
  onSkillEdit?: (edit: SkillEdit) => void;
  onScoreEdit?: (edit: ScoreEdit) => void;
}) {
  const [editing, setEditing] = useState<number | null>(null);
  const winners = new Set(trace.answer.map((a) => a.candidate));
  const lexical = trace.models.recall?.startsWith('lexical') || trace.models.recall?.startsWith('keyword');
  // One reason shared by every candidate (the task has no parse) is said once above the table, not on every row.
  const first = trace.candidates[0]?.dropped?.reason;
  const sharedReason =
    first !== undefined && trace.candidates.every((c) => c.dropped?.reason === first) ? first : undefined;
  return (
    <div className="table-scroll">
      {sharedReason && (
        <p className="muted small" data-testid="all-dropped">
          No candidate has an edge: {sharedReason}.
        </p>
      )}
      <table className="table candidates" data-testid="candidates-table">
        <thead>
          <tr>
            <th>#</th>
            <th>Skill</th>
            <th title={terms.recall}>{lexical ? 'recall' : 'cos'}</th>
            <th title={terms.rho}>ρ</th>
            <th title={terms.w}>w</th>
            <th title={terms.edge}>src → tgt</th>
            <th>Precondition / completion</th>
          </tr>
        </thead>
        <tbody>
          {trace.candidates.map((c) => (
            <tr
              key={c.index}
              className={winners.has(c.index) ? 'winner' : c.dropped ? 'dropped' : undefined}
              data-skill={c.name}
            >
              <td className="num">{c.index}</td>
              <td>
                {c.skillId !== null ? <a href={`#/skill/${c.skillId}`}>{c.name}</a> : c.name}
                {winners.has(c.index) && <span className="badge status-verified">answer</span>}
                {gold.has(c.name) && (
                  <span className="badge gold" title={terms.gold}>
                    gold
                  </span>
                )}
                {c.parseMissing && (
                  <span className="badge warn" title="No parse: p = None, e = description">
                    no parse
                  </span>
                )}
              </td>
              <td className="num">{fmt(c.recallScore)}</td>
              <td className="num">{fmt(c.rho)}</td>
              <td className="num">{fmt(c.w)}</td>
              <td className="nowrap">
                {c.src !== null && c.tgt !== null ? (
                  `s${c.src} → s${c.tgt}`
                ) : c.unplaced ? (
                  <span
                    className="small"
                    title={`Left unaligned: the unaligned skills weigh ${fmt(c.unplaced.openWeight)} in w together, less than the smallest split margin ${fmt(c.unplaced.smallestMargin)}, so this edge could not change the stages`}
                  >
                    not aligned
                  </span>
                ) : (
                  '—'
                )}
                {c.dropped && (
                  <div className="small dropped-reason">
                    <span className="badge warn" title={c.dropped.reason}>
                      dropped
                    </span>
                    {!sharedReason && ` ${c.dropped.reason}`}
                  </div>
                )}
              </td>
              <td className="small">
                {editing === c.index && onSkillEdit && onScoreEdit ? (
                  <CandidateEditor
                    c={c}
                    states={trace.n}
                    onApply={(edit) => {
                      setEditing(null);
                      onSkillEdit(edit);
                    }}
                    onScore={onScoreEdit}
                  />
                ) : (
                  <>
                    <div>
                      <span className="muted">p:</span> {c.precondition ?? 'None'}
                    </div>
                    <div>
                      <span className="muted">e:</span> {c.completion}
                    </div>
                    {onSkillEdit && (
                      <button className="link small" onClick={() => setEditing(c.index)}>
                        edit (what if)
                      </button>
                    )}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
