// The answer explained: one sentence per picked skill, the gold skills it missed and where they were lost, and for
// each stage what would make another skill win it, with a button that tries that stage fit as a what-if.
import { useState } from 'react';
import type { SelectionWhy, StageWhy } from '../../../shared/api';

export interface FitTry {
  skill: string;
  tau: string;
  r: number;
}

/** A fit a little past the boundary, rounded so the field shows a plain number. */
export function fitToTry(fitNeeded: number): number {
  return Math.ceil((fitNeeded + 0.05) * 100) / 100;
}

function StageChallenge({
  stage,
  busy,
  onTry,
}: {
  stage: StageWhy;
  busy: boolean;
  onTry: (t: FitTry) => void;
}) {
  const [picked, setPicked] = useState(0);
  const c = stage.challengers[Math.min(picked, stage.challengers.length - 1)];
  if (!c) return null;
  return (
    <li data-testid="why-challenge" data-stage={stage.stage}>
      <span className="small muted">Stage {stage.stage + 1}:</span>{' '}
      <select
        aria-label={`Challenger for stage ${stage.stage + 1}`}
        title={c.name}
        value={Math.min(picked, stage.challengers.length - 1)}
        onChange={(e) => setPicked(Number(e.target.value))}
      >
        {stage.challengers.map((x, i) => (
          <option key={x.candidate} value={i} title={x.name}>
            {x.name}
          </option>
        ))}
      </select>{' '}
      <span className="small">{c.sentence}</span>{' '}
      {c.fitNeeded !== null && (
        <button
          className="small"
          disabled={busy}
          onClick={() => onTry({ skill: c.name, tau: stage.tau, r: fitToTry(c.fitNeeded!) })}
        >
          Try fit {fitToTry(c.fitNeeded).toFixed(2)}
        </button>
      )}
    </li>
  );
}

export function WhyPanel({
  why,
  busy,
  onTryFit,
}: {
  why: SelectionWhy | undefined;
  busy: boolean;
  onTryFit?: (t: FitTry) => void;
}) {
  if (!why) return null;
  const challenged = why.stages.filter((s) => s.challengers.length > 0);
  return (
    <div className="why" data-testid="why">
      <ul className="why-picks">
        {why.picks.map((p) => (
          <li key={p.candidate} data-testid="why-pick" data-skill={p.name}>
            {p.gold && (
              <span className="badge gold" title="A skill the label set says this task needs">
                gold
              </span>
            )}{' '}
            {p.sentence}
          </li>
        ))}
      </ul>
      {why.goldMissed.length > 0 && (
        <ul className="why-missed">
          {why.goldMissed.map((m) => (
            <li key={m.name} data-testid="why-gold-miss" data-skill={m.name}>
              <span className="badge gold missed">missed gold</span> {m.sentence}
            </li>
          ))}
        </ul>
      )}
      {onTryFit && challenged.length > 0 && (
        <details className="why-challenges">
          <summary className="small">What would make another skill win a stage?</summary>
          <ul>
            {challenged.map((s) => (
              <StageChallenge key={s.stage} stage={s} busy={busy} onTry={onTryFit} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
