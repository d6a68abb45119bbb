// What-if editor of one candidate: its precondition and completion, its ρ, and one alignment score r(s_i, p or e).
import { useState } from 'react';
import type { CandidateView } from './trace-view';
import type { ScoreEdit } from './what-if';

export interface SkillEdit {
  name: string;
  skillId: number | null;
  precondition: string | null;
  completion: string;
  /** A hand-set r(q, c): the skill's relevance to the task. */
  rho?: number;
}

const finite = (text: string): number | null => {
  const r = Number(text);
  return text.trim() !== '' && Number.isFinite(r) ? r : null;
};

export function CandidateEditor({
  c,
  states,
  onApply,
  onScore,
}: {
  c: CandidateView;
  states: number;
  onApply: (edit: SkillEdit) => void;
  onScore: (edit: ScoreEdit) => void;
}) {
  const [pre, setPre] = useState(c.precondition ?? '');
  const [post, setPost] = useState(c.completion);
  const [rho, setRho] = useState(c.rho === null ? '' : String(c.rho));
  const [side, setSide] = useState<'precondition' | 'completion'>(
    c.precondition === null ? 'completion' : 'precondition',
  );
  const [state, setState] = useState(side === 'precondition' ? (c.src ?? 0) : (c.tgt ?? 1));
  const [align, setAlign] = useState('');
  return (
    <form
      className="inline-edit"
      onSubmit={(e) => {
        e.preventDefault();
        const r = finite(rho);
        onApply({
          name: c.name,
          skillId: c.skillId,
          precondition: pre.trim() ? pre.trim() : null,
          completion: post.trim(),
          ...(r !== null && r !== c.rho ? { rho: r } : {}),
        });
        const a = finite(align);
        if (a !== null) onScore({ kind: 'score', use: 'align', skill: c.name, state, side, r: a });
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
        title="ρ: relevance of the skill to the whole task (log-odds)"
      />
      <span
        className="align-edit"
        title="Set one alignment score r(state, precondition or completion) by hand"
      >
        r(
        <select
          value={state}
          onChange={(e) => setState(Number(e.target.value))}
          aria-label={`Alignment state of ${c.name}`}
        >
          {Array.from({ length: states }, (_, i) => (
            <option key={i} value={i}>
              s{i}
            </option>
          ))}
        </select>
        ,{' '}
        <select
          value={side}
          onChange={(e) => setSide(e.target.value as typeof side)}
          aria-label={`Alignment side of ${c.name}`}
        >
          {c.precondition !== null && <option value="precondition">p</option>}
          <option value="completion">e</option>
        </select>
        ) ={' '}
        <input
          className="narrow"
          value={align}
          onChange={(e) => setAlign(e.target.value)}
          placeholder="r"
          aria-label={`Alignment score of ${c.name}`}
        />
      </span>
      <button type="submit" className="small">
        What if
      </button>
    </form>
  );
}
