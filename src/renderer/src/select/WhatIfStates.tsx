// The what-if panel: one input per state of the run's parse; a changed state is applied when the field loses focus or
// on Enter. Skill states, scores and stage fits are edited in the tables below.
import { useEffect, useState } from 'react';

export function WhatIfStates({
  states,
  edited,
  busy,
  onEdit,
}: {
  states: string[];
  edited: Record<number, string>;
  busy: boolean;
  onEdit: (index: number, text: string) => void;
}) {
  const [drafts, setDrafts] = useState<string[]>(() => states.map((s, i) => edited[i] ?? s));
  useEffect(() => setDrafts(states.map((s, i) => edited[i] ?? s)), [states, edited]);
  const commit = (i: number) => {
    const text = drafts[i] ?? '';
    if (text !== (edited[i] ?? states[i])) onEdit(i, text);
  };
  return (
    <ol className="parse-editor" start={0}>
      {drafts.map((text, i) => (
        <li key={i}>
          <label className="state-line">
            <span className="muted small">s{i}</span>
            <input
              value={text}
              disabled={busy}
              className={edited[i] !== undefined ? 'edited' : undefined}
              aria-label={`What-if state ${i}`}
              onChange={(e) => setDrafts(drafts.map((d, j) => (j === i ? e.target.value : d)))}
              onBlur={() => commit(i)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') commit(i);
              }}
            />
          </label>
        </li>
      ))}
    </ol>
  );
}

export function WhatIfPanel({
  canReset,
  onReset,
  ...states
}: Parameters<typeof WhatIfStates>[0] & { canReset: boolean; onReset: () => void }) {
  return (
    <section className="panel" aria-label="What if">
      <div className="row">
        <h2>What if</h2>
        <span className="muted small">
          Edit a state, a skill&apos;s states or scores (candidates table), or a stage fit (click it in a
          stage table); the answer is recomputed at once.
        </span>
        <span className="spacer" />
        {canReset && (
          <button onClick={onReset} disabled={states.busy}>
            Reset
          </button>
        )}
      </div>
      <WhatIfStates {...states} />
    </section>
  );
}
