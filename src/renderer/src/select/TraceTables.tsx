// The numbers behind a selection: candidates with cosine and rho, the nodes' In/Out/Cross, and each stage's phi table.
import { useState } from 'react';
import type { CandidateView, TraceView } from './trace-view';
import { fmt } from './trace-view';

export interface SkillEdit {
  name: string;
  skillId: number | null;
  precondition: string | null;
  completion: string;
  /** A hand-set r(q, c): the skill's relevance to the task. */
  rho?: number;
}

function CandidateEditor({ c, onApply }: { c: CandidateView; onApply: (edit: SkillEdit) => void }) {
  const [pre, setPre] = useState(c.precondition ?? '');
  const [post, setPost] = useState(c.completion);
  const [rho, setRho] = useState(c.rho === null ? '' : String(c.rho));
  return (
    <form
      className="inline-edit"
      onSubmit={(e) => {
        e.preventDefault();
        onApply({
          name: c.name,
          skillId: c.skillId,
          precondition: pre.trim() ? pre.trim() : null,
          completion: post.trim(),
        });
      }}
    >
      <input
        value={pre}
        onChange={(e) => setPre(e.target.value)}
        placeholder="precondition (empty = None)"
        aria-label={`Precondition of ${c.name}`}
      />
      <input
        value={post}
        onChange={(e) => setPost(e.target.value)}
        placeholder="completion"
        aria-label={`Completion of ${c.name}`}
      />
      <input
        className="narrow"
        value={rho}
        onChange={(e) => setRho(e.target.value)}
        placeholder="ρ"
        aria-label={`ρ of ${c.name}`}
      />
      <button type="submit" className="small">
        What if
      </button>
    </form>
  );
}

export function CandidatesTable({
  trace,
  onSkillEdit,
}: {
  trace: TraceView;
  onSkillEdit?: (edit: SkillEdit) => void;
}) {
  const [editing, setEditing] = useState<number | null>(null);
  const winners = new Set(trace.answer.map((a) => a.candidate));
  return (
    <div className="table-scroll">
      <table className="table candidates" data-testid="candidates-table">
        <thead>
          <tr>
            <th>#</th>
            <th>Skill</th>
            <th title="The recall score: cos(E(q), E(m)) for dense recall, BM25 for the lexical engine">
              {trace.models.recall?.startsWith('lexical') || trace.models.recall?.startsWith('keyword')
                ? 'recall'
                : 'cos'}
            </th>
            <th title="ρ = r(q, c): relevance to the whole task">ρ</th>
            <th title="w = σ(ρ)">w</th>
            <th>src → tgt</th>
            <th>Precondition / completion</th>
          </tr>
        </thead>
        <tbody>
          {trace.candidates.map((c) => (
            <tr key={c.index} className={winners.has(c.index) ? 'winner' : c.dropped ? 'dropped' : undefined}>
              <td className="num">{c.index}</td>
              <td>
                {c.skillId !== null ? <a href={`#/skill/${c.skillId}`}>{c.name}</a> : c.name}
                {winners.has(c.index) && <span className="badge status-verified">answer</span>}
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
                {c.src !== null && c.tgt !== null ? `s${c.src} → s${c.tgt}` : '—'}
                {c.dropped && <div className="muted small">dropped: {c.dropped.reason}</div>}
              </td>
              <td className="small">
                {editing === c.index && onSkillEdit ? (
                  <CandidateEditor
                    c={c}
                    onApply={(edit) => {
                      setEditing(null);
                      onSkillEdit(edit);
                    }}
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

export function NodesTable({ trace }: { trace: TraceView }) {
  const states = trace.parse?.states ?? [];
  return (
    <table className="table" data-testid="nodes-table">
      <thead>
        <tr>
          <th>Node</th>
          <th>State</th>
          <th>In</th>
          <th>Out</th>
          <th>Cross</th>
          <th>Split</th>
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

export function StageTables({ trace }: { trace: TraceView }) {
  if (trace.stages.length === 0) return <p className="muted small">No stages in this variant.</p>;
  return (
    <div className="stages">
      {trace.stages.map((stage) => (
        <div key={stage.index} className="stage" data-testid="stage-table">
          <h4>
            Stage {stage.index + 1}: s{stage.from} → s{stage.to}
          </h4>
          <p className="small">
            <span className="muted">τ =</span> {stage.tau}
          </p>
          <table className="table">
            <thead>
              <tr>
                <th>Skill</th>
                <th title="r(τ, c)">fit</th>
                <th title="φ = log σ(ρ) + log σ(fit)">φ</th>
              </tr>
            </thead>
            <tbody>
              {[...stage.phi]
                .sort((a, b) => (b.phi ?? -Infinity) - (a.phi ?? -Infinity))
                .map((entry) => (
                  <tr
                    key={entry.candidate}
                    className={entry.candidate === stage.winner ? 'winner' : undefined}
                  >
                    <td>{trace.candidates[entry.candidate]?.name ?? `#${entry.candidate}`}</td>
                    <td className="num">{fmt(entry.fit)}</td>
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
                ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}
