// What an agent sees of the profile: the <available_skills> listing against its context budget, and what gets cut.
import { useState } from 'react';
import type { BudgetRequest } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useApi } from '../app/use-api';
import { OverridesPanel } from './OverridesPanel';

type Agent = NonNullable<BudgetRequest['agent']>;

const numberOrUndefined = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s));

export function BudgetPanel({ profile }: { profile: string }) {
  const [agent, setAgent] = useState<Agent>('claude');
  const [contextTokens, setContextTokens] = useState('200000');
  const [budgetChars, setBudgetChars] = useState('');
  const [maxEntryChars, setMaxEntryChars] = useState('1536');
  const request: BudgetRequest = {
    profile,
    agent,
    contextTokens: numberOrUndefined(contextTokens),
    budgetChars: numberOrUndefined(budgetChars),
    maxEntryChars: numberOrUndefined(maxEntryChars),
  };
  const preview = useApi('install.budget', request);
  const p = preview.data;
  const share = p ? Math.min(1, p.usedChars / p.budgetChars) : 0;
  const over = p ? p.fullChars > p.budgetChars : false;
  const cut = p?.entries.filter((e) => e.fate !== 'full') ?? [];
  const download = p ? `data:text/plain;charset=utf-8,${encodeURIComponent(p.text)}` : undefined;

  return (
    <section className="panel" aria-label="Context budget">
      <h2>Context budget</h2>
      <div className="row wrap small">
        <label>
          Agent{' '}
          <select value={agent} onChange={(e) => setAgent(e.target.value as Agent)} aria-label="Agent">
            <option value="claude">Claude Code</option>
            <option value="codex">Codex</option>
            <option value="agents">Agent Skills client</option>
          </select>
        </label>
        <label>
          Context (tokens){' '}
          <input
            className="narrow-text"
            value={contextTokens}
            onChange={(e) => setContextTokens(e.target.value)}
            aria-label="Context tokens"
          />
        </label>
        <label>
          Budget (chars){' '}
          <input
            className="narrow-text"
            placeholder="1% of context"
            value={budgetChars}
            onChange={(e) => setBudgetChars(e.target.value)}
            aria-label="Budget characters"
          />
        </label>
        <label>
          Per entry{' '}
          <input
            className="narrow-text"
            value={maxEntryChars}
            onChange={(e) => setMaxEntryChars(e.target.value)}
            aria-label="Characters per entry"
          />
        </label>
      </div>
      <ErrorNote error={preview.error} />
      {p && (
        <>
          <div
            className={over ? 'budget-meter over' : 'budget-meter'}
            role="meter"
            aria-label="Budget used"
            aria-valuenow={p.usedChars}
            aria-valuemax={p.budgetChars}
          >
            <div className="budget-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
          </div>
          <p className="small" data-testid="budget-summary">
            {p.usedChars.toLocaleString()} of {p.budgetChars.toLocaleString()} characters used
            {over ? ` — the full listing needs ${p.fullChars.toLocaleString()}` : ''}; {cut.length} of{' '}
            {p.entries.length} entries cut or dropped.
          </p>
          {cut.length > 0 && (
            <table className="table" aria-label="Cut entries">
              <tbody>
                {cut.map((e) => (
                  <tr key={e.skillId}>
                    <td>
                      <span className={`badge fate-${e.fate}`}>{e.fate}</span>
                    </td>
                    <td>{e.name}</td>
                    <td className="num small">
                      {e.chars} → {e.shownChars}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <details>
            <summary className="small">The listing the agent gets</summary>
            <pre className="listing" data-testid="budget-text">
              {p.text}
            </pre>
          </details>
          <a className="small" href={download} download={`${profile}-${agent}-skills.txt`}>
            Export the listing as text
          </a>
          {agent === 'claude' && <OverridesPanel budget={request} />}
        </>
      )}
    </section>
  );
}
