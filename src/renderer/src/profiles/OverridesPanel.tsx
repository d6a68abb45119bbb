// Claude Code's fix for a listing over budget: skillOverrides for the entries the budget cuts, with a mode per entry,
// the diff to the chosen settings file, and a Write button. Entries set by hand are shown and left alone.
import { useState } from 'react';
import type {
  BudgetRequest,
  ClaudeSettingsScope,
  SkillOverrideMode,
  SkillOverridesWriteResult,
} from '../../../shared/api';
import { skillOverrideModes } from '../../../shared/install';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';

const scopeLabels: Record<ClaudeSettingsScope, string> = {
  project: 'Project (.claude/settings.json)',
  local: 'Project, this machine (.claude/settings.local.json)',
  user: 'User (~/.claude/settings.json)',
};

const modeLabels: Record<SkillOverrideMode, string> = {
  on: 'on (no override)',
  'name-only': 'name-only',
  'user-invocable-only': '/command only',
  off: 'off',
};

export function OverridesPanel({ budget }: { budget: BudgetRequest }) {
  const client = useClient();
  const [scope, setScope] = useState<ClaudeSettingsScope>('project');
  const [project, setProject] = useState('');
  const [modes, setModes] = useState<Record<string, SkillOverrideMode>>({});
  const [written, setWritten] = useState<SkillOverridesWriteResult | null>(null);
  const request = {
    ...budget,
    agent: 'claude' as const,
    settings: scope,
    modes,
    projectDir: scope === 'user' ? undefined : project.trim() || undefined,
  };
  const preview = useApi('install.overrides', request);
  const action = useAction();
  const p = preview.data;

  const write = async () => {
    const r = await action.run(() =>
      client.call('install.writeOverrides', { ...request, expectDigest: p?.digest ?? null }),
    );
    if (r) {
      setWritten(r);
      preview.reload();
    }
  };

  return (
    <section className="overrides" aria-label="Skill overrides">
      <h3>Claude Code skillOverrides</h3>
      <p className="muted small">
        Instead of letting Claude Code cut the listing, say per skill what it shows: name-only keeps the name
        without its description, user-invocable-only hides it from the model but keeps its /command, off hides
        it. Keys and overrides set by hand are never changed.
      </p>
      <div className="row wrap small">
        <select
          value={scope}
          onChange={(e) => setScope(e.target.value as ClaudeSettingsScope)}
          aria-label="Settings file"
        >
          {Object.entries(scopeLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {scope !== 'user' && (
          <input
            className="grow"
            placeholder="Project folder (default: where the app was started)"
            value={project}
            onChange={(e) => setProject(e.target.value)}
            aria-label="Overrides project folder"
          />
        )}
      </div>
      <ErrorNote error={preview.error} />
      {p && (
        <>
          <p className="small" data-testid="overrides-file">
            <code>{p.settingsFile}</code>
          </p>
          {p.changes.length === 0 ? (
            <p className="small muted">Nothing is cut: no override is needed.</p>
          ) : (
            <ul className="plain overrides-list" aria-label="Proposed overrides">
              {p.changes.map((c) => (
                <li key={c.skill}>
                  <div className="row wrap">
                    <span className="override-skill">{c.skill}</span>
                    {c.fate && <span className={`badge fate-${c.fate}`}>{c.fate}</span>}
                    <span className={`badge override-${c.action}`}>{c.action}</span>
                  </div>
                  <div className="row wrap small">
                    {c.action === 'kept' || c.fate === null ? (
                      <code>{c.current}</code>
                    ) : (
                      <select
                        value={c.proposed}
                        onChange={(e) =>
                          setModes((m) => ({ ...m, [c.skill]: e.target.value as SkillOverrideMode }))
                        }
                        aria-label={`Override for ${c.skill}`}
                      >
                        {skillOverrideModes.map((mode) => (
                          <option key={mode} value={mode}>
                            {modeLabels[mode]}
                          </option>
                        ))}
                      </select>
                    )}
                    {c.note && <span className="muted">{c.note}</span>}
                  </div>
                </li>
              ))}
            </ul>
          )}
          {p.diff ? (
            <pre className="listing" data-testid="overrides-diff">
              {p.diff}
            </pre>
          ) : (
            <p className="small muted" data-testid="overrides-diff">
              The settings file already says this.
            </p>
          )}
          <div className="row">
            <button disabled={!p.changed || action.busy || preview.loading} onClick={write}>
              Write overrides
            </button>
            {written && (
              <span className="small" data-testid="overrides-written">
                {written.written ? `Wrote ${written.settingsFile}` : 'Nothing to write'}
              </span>
            )}
          </div>
        </>
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </section>
  );
}
