// Two runs' trigger figures side by side: per skill, trigger precision and recall before → after for the variant
// chosen, and the queries that flipped (now triggering the skill, or no longer).
import { useState } from 'react';
import type { TriggerChange } from '../../../shared/api';
import { variantLabel } from './charts';
import { share, VariantChooser } from './TriggerFiguresView';

function Moved({ before, after }: { before: number | null | undefined; after: number | null | undefined }) {
  const d =
    before === null || before === undefined || after === null || after === undefined ? 0 : after - before;
  const tone = Math.abs(d) < 1e-9 ? '' : d > 0 ? 'delta-up' : 'delta-down';
  return (
    <td className={`num ${tone}`}>
      {share(before)} → {share(after)}
    </td>
  );
}

export function TriggerChangesView({ triggers }: { triggers: TriggerChange[] }) {
  const variants = [...new Map(triggers.map((t) => [variantLabel(t), t])).values()];
  const [chosen, setChosen] = useState(0);
  const shown = variants[Math.min(chosen, variants.length - 1)];
  if (!shown) return null;
  const rows = triggers.filter((t) => variantLabel(t) === variantLabel(shown));
  return (
    <div aria-label="Trigger figures compared" data-testid="trigger-changes">
      <div className="row wrap">
        <h3>Trigger figures per skill</h3>
        <VariantChooser
          variants={variants}
          chosen={chosen}
          onChoose={setChosen}
          label="Trigger changes of variant"
        />
      </div>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th>Skill</th>
              <th>Trigger precision</th>
              <th>Trigger recall</th>
              <th>Flipped queries</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => (
              <tr key={t.skill} data-skill={t.skill}>
                <th>{t.skill}</th>
                <Moved before={t.base?.precision} after={t.current?.precision} />
                <Moved before={t.base?.recall} after={t.current?.recall} />
                <td>
                  {t.flips.length === 0 && <span className="muted small">none</span>}
                  {t.flips.map((f) => {
                    // Right now: a should-trigger query that triggers, or a should-not one that no longer does.
                    const better = f.after === f.shouldTrigger;
                    return (
                      <div key={f.itemId} className="small change-line" title={f.task}>
                        <span className={better ? 'delta-up' : 'delta-down'}>
                          {f.after ? 'now triggers' : 'no longer triggers'}
                        </span>{' '}
                        <strong>{f.itemId}</strong>{' '}
                        <span className="muted">
                          ({f.shouldTrigger ? 'should trigger' : 'should not'}) {f.task}
                        </span>
                      </div>
                    );
                  })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
