// A run's per-skill trigger figures on trigger-style queries (skill-creator's should_trigger true and false): one row
// per skill for the variant chosen, as a skill author reads a description's triggering.
import { useState } from 'react';
import type { VariantTriggerFigures } from '../../../shared/api';
import { variantLabel } from './charts';

export const share = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));

/** Which variant's figures to show, when the run has several. */
export function VariantChooser({
  variants,
  chosen,
  onChoose,
  label,
}: {
  variants: { variant: string; k?: number }[];
  chosen: number;
  onChoose: (i: number) => void;
  label: string;
}) {
  if (variants.length < 2)
    return variants[0] ? <span className="badge">{variantLabel(variants[0])}</span> : null;
  return (
    <select aria-label={label} value={chosen} onChange={(e) => onChoose(Number(e.target.value))}>
      {variants.map((v, i) => (
        <option key={variantLabel(v)} value={i}>
          {variantLabel(v)}
        </option>
      ))}
    </select>
  );
}

export function TriggerFiguresView({ triggers }: { triggers: VariantTriggerFigures[] }) {
  const [chosen, setChosen] = useState(0);
  const v = triggers[Math.min(chosen, triggers.length - 1)];
  if (!v) return null;
  return (
    <section className="panel" aria-label="Trigger figures" data-testid="trigger-figures">
      <div className="row wrap">
        <h3>Trigger figures per skill</h3>
        <VariantChooser
          variants={triggers}
          chosen={chosen}
          onChoose={setChosen}
          label="Trigger figures of variant"
        />
      </div>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th>Skill</th>
              <th title="Queries whose gold names the skill (should_trigger: true)">Should trigger</th>
              <th title="Should-trigger queries answered with the skill">Triggered</th>
              <th title="Queries that name the skill to avoid (should_trigger: false)">Should not</th>
              <th title="Should-not-trigger queries answered with the skill anyway">Falsely triggered</th>
              <th title="Triggered / (triggered + falsely triggered)">Trigger precision</th>
              <th title="Triggered / should trigger">Trigger recall</th>
            </tr>
          </thead>
          <tbody>
            {v.skills.map((s) => (
              <tr key={s.skill} data-skill={s.skill}>
                <th>{s.skill}</th>
                <td className="num">{s.shouldTrigger}</td>
                <td className="num">{s.triggered}</td>
                <td className="num">{s.shouldNot}</td>
                <td className={s.falselyTriggered > 0 ? 'num delta-down' : 'num'}>{s.falselyTriggered}</td>
                <td className="num">{share(s.precision)}</td>
                <td className="num">{share(s.recall)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">
        A query triggers a skill when the variant’s answer names it. Edit a skill’s description, import its
        folder again, then <em>Re-run and compare</em> to see these figures move.
      </p>
    </section>
  );
}
