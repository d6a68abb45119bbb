// Settings: every group of the schema as a form, with model and LLM tools beside the groups they belong to.
import { useEffect, useMemo, useState } from 'react';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { LlmTools, modelListId } from './LlmTools';
import { ModelsPanel } from './ModelsPanel';
import { FieldControl } from './SettingsForm';
import { labelFor, settingsFields } from './schema-fields';

/** The id of a group's section, which #/settings/GROUP scrolls to. */
export const settingsSectionId = (group: string) => `settings-${group}`;

export function SettingsScreen({ section }: { section?: string } = {}) {
  const client = useClient();
  const loaded = useApi('settings.get', {});
  const fields = useMemo(settingsFields, []);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => {
    if (loaded.data) setDraft(loaded.data);
  }, [loaded.data]);
  const shown = draft !== null && Boolean(loaded.data);
  // A link to one group (#/settings/import) lands on it once the form is drawn, and stays on it while the panels
  // above it fill in (models, LLM tools) for a moment, unless the person scrolls first.
  useEffect(() => {
    const target = shown && section ? document.getElementById(settingsSectionId(section)) : null;
    if (!target) return;
    const land = () => target.scrollIntoView({ block: 'start' });
    land();
    target.focus({ preventScroll: true });
    const grown = new ResizeObserver(land);
    grown.observe(target.parentElement ?? target);
    const stop = () => grown.disconnect();
    const timer = window.setTimeout(stop, 2000);
    window.addEventListener('wheel', stop, { once: true });
    window.addEventListener('keydown', stop, { once: true });
    return () => {
      stop();
      window.clearTimeout(timer);
      window.removeEventListener('wheel', stop);
      window.removeEventListener('keydown', stop);
    };
  }, [shown, section]);
  // Using a model folder changes the settings on the backend; show the new values.
  useCuratorEvent((event) => {
    if (event.type === 'models.changed') loaded.reload();
  });

  if (loaded.error && !draft) return <ErrorNote error={loaded.error} />;
  if (!draft || !loaded.data) return <p className="muted">Loading settings…</p>;
  const base = loaded.data;
  const changedGroups = (Object.keys(draft) as (keyof Settings)[]).filter(
    (k) => JSON.stringify(draft[k]) !== JSON.stringify(base[k]),
  );
  const save = async () => {
    const patch: SettingsPatch = {};
    for (const k of changedGroups) (patch as Record<string, unknown>)[k] = draft[k];
    const next = await action.run(() => client.call('settings.update', { patch }));
    if (next) {
      setDraft(next);
      setSaved(true);
      loaded.reload();
    }
  };
  return (
    <div className="settings">
      <div className="row sticky-actions">
        <h1>Settings</h1>
        <span className="spacer" />
        {changedGroups.length > 0 ? (
          <span className="muted small">Unsaved: {changedGroups.map(labelFor).join(', ')}</span>
        ) : (
          saved && <span className="muted small">Saved.</span>
        )}
        <button onClick={() => setDraft(base)} disabled={changedGroups.length === 0}>
          Discard
        </button>
        <button
          className="primary"
          onClick={() => void save()}
          disabled={changedGroups.length === 0 || action.busy}
        >
          Save
        </button>
      </div>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
      <div className="settings-grid">
        {fields.map((field) => (
          <section
            key={field.key}
            id={settingsSectionId(field.key)}
            tabIndex={-1}
            className="panel"
            aria-label={labelFor(field.key)}
          >
            <FieldControl
              field={field}
              path={field.key}
              value={draft[field.key as keyof Settings]}
              onChange={(v) => {
                setSaved(false);
                setDraft({ ...draft, [field.key]: v } as Settings);
              }}
              suggestions={{ 'llm.model': modelListId }}
            />
            {field.key === 'models' && (
              <ModelsPanel slots={{ embedder: draft.models.embedder, reranker: draft.models.reranker }} />
            )}
            {field.key === 'llm' && (
              <LlmTools
                dirty={changedGroups.includes('llm')}
                draft={draft.llm as unknown as Record<string, unknown>}
                onPickModel={(model) => {
                  setSaved(false);
                  setDraft({ ...draft, llm: { ...draft.llm, model } });
                }}
              />
            )}
          </section>
        ))}
      </div>
    </div>
  );
}
