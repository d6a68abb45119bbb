// One input per state of the run's parse; a changed state is applied when the field loses focus or on Enter.
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
