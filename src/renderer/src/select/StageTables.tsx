// Each stage's τ and φ table, winner first-class; a fit can be set by hand as a what-if.
import { useState } from 'react';
import { terms } from './glossary';
import type { TraceView } from './trace-view';
import { fmt } from './trace-view';

function FitCell({
  value,
  label,
  edited,
  onSet,
}: {
  value: number | null;
  label: string;
  edited: boolean;
  onSet?: (r: number) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  if (!onSet) return <>{fmt(value)}</>;
  if (draft === null)
    return (
      <button
        className={edited ? 'link small edited' : 'link small'}
        title={edited ? 'Set by hand (what if); click to change' : 'Set this stage fit by hand (what if)'}
        onClick={() => setDraft(value === null ? '' : value.toFixed(3))}
      >
        {fmt(value)}
      </button>
    );
  const commit = () => {
    const r = Number(draft);
    if (draft.trim() !== '' && Number.isFinite(r) && r !== value) onSet(r);
    setDraft(null);
  };
  return (
    <input
      className="narrow"
      autoFocus
      value={draft}
      aria-label={label}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setDraft(null);
      }}
    />
  );
}

export function StageTables({
  trace,
  gold,
  editedFits,
  onFitEdit,
}: {
  trace: TraceView;
  gold: ReadonlySet<string>;
  /** `skill@tau` of the fits a what-if set by hand. */
  editedFits?: ReadonlySet<string>;
  onFitEdit?: (skill: string, tau: string, r: number) => void;
}) {
  if (trace.stages.length === 0) return <p className="muted small">No stages in this variant.</p>;
  return (
    <div className="stages">
      {trace.stages.map((stage) => (
        <div key={stage.index} className="stage" data-testid="stage-table" data-stage={stage.index}>
          <h4 title={terms.stage}>
            Stage {stage.index + 1}: s{stage.from} → s{stage.to}
          </h4>
          <p className="small">
            <span className="muted">τ =</span> {stage.tau}
          </p>
          <table className="table">
            <thead>
              <tr>
                <th>Skill</th>
                <th title={terms.fit}>fit</th>
                <th title={terms.phi}>φ</th>
              </tr>
            </thead>
            <tbody>
              {[...stage.phi]
                .sort((a, b) => (b.phi ?? -Infinity) - (a.phi ?? -Infinity))
                .map((entry) => {
                  const name = trace.candidates[entry.candidate]?.name ?? `#${entry.candidate}`;
                  return (
                    <tr
                      key={entry.candidate}
                      className={entry.candidate === stage.winner ? 'winner' : undefined}
                      data-skill={name}
                    >
                      <td>
                        {name}
                        {gold.has(name) && (
                          <span className="badge gold" title={terms.gold}>
                            gold
                          </span>
                        )}
                      </td>
                      <td className="num">
                        <FitCell
                          value={entry.fit}
                          label={`Stage ${stage.index + 1} fit of ${name}`}
                          edited={editedFits?.has(`${name}@${stage.tau}`) ?? false}
                          onSet={onFitEdit ? (r) => onFitEdit(name, stage.tau, r) : undefined}
                        />
                      </td>
                      <td className="num">
                        {entry.phi !== null ? (
                          fmt(entry.phi)
                        ) : (
                          <span className="muted" title="Skipped: log σ(ρ) could not beat the best φ">
                            pruned ≤ {fmt(entry.prunedBound)}
                          </span>
                        )}
                      </td>
                    </tr>
                  );
                })}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}
