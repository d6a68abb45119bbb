// Reviewed states in and out as a JSONL file ({name, precondition, completion} per line): applies one, e.g. the sample
// library's sample-states.jsonl (without states, or an LLM, every skill stays unparsed and the selection has no
// graph), and saves this library's for another curator or library.
import { useState } from 'react';
import type { SaveDialogRequest } from '../../../preload/bridge';
import { ErrorNote } from '../app/ErrorNote';
import { SampleFileHint } from '../app/SampleFileHint';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';
import { saveStates, statesChoices, type StatesChoice } from './save-states';

/** The first few of a list, so a file written for a bigger library does not flood the panel. */
const some = (items: string[]) =>
  items.slice(0, 5).join(', ') + (items.length > 5 ? `, … ${items.length - 5} more` : '');

export function ApplyStatesPanel({ onApplied }: { onApplied: () => void }) {
  const client = useClient();
  const action = useAction();
  const [path, setPath] = useState('');
  const [verify, setVerify] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [choice, setChoice] = useState<StatesChoice>('reviewed');
  const [saved, setSaved] = useState<string | null>(null);
  const apply = async () => {
    const answer = await action.run(() => client.call('states.import', { path: path.trim(), verify }));
    if (!answer) return;
    const parts = [`Applied states to ${answer.applied} skill${answer.applied === 1 ? '' : 's'}`];
    if (answer.unchanged.length)
      parts.push(`${answer.unchanged.length} already had the same states (${some(answer.unchanged)})`);
    if (answer.keptHumanEdits.length)
      parts.push(`kept your edits on ${answer.keptHumanEdits.length} (${some(answer.keptHumanEdits)})`);
    if (answer.unknownSkills.length)
      parts.push(
        `skipped ${answer.unknownSkills.length} names not in the library (${some(answer.unknownSkills)})`,
      );
    if (answer.suppressions.applied)
      parts.push(
        `added ${answer.suppressions.applied} audit suppression${answer.suppressions.applied === 1 ? '' : 's'} with their reasons`,
      );
    if (answer.errors.length)
      parts.push(
        `${answer.errors.length} lines could not be read (${some(answer.errors.map((e) => `line ${e.line}: ${e.message}`))})`,
      );
    setResult(`${parts.join('; ')}.`);
    onApplied();
  };
  const save = async () => {
    setSaved(null);
    const desktop = client.mode === 'desktop' ? window.curator?.desktop : undefined;
    const dialog = desktop?.saveDialog && ((req: SaveDialogRequest) => desktop.saveDialog(req));
    const outcome = await action.run(() => saveStates(client, choice, dialog));
    if (!outcome || outcome.kind === 'cancelled') return;
    setSaved(
      outcome.kind === 'empty'
        ? `Nothing saved: no skill has ${choice === 'all' ? 'states' : 'states of that kind'} yet.`
        : `Saved the states of ${outcome.skills} skill${outcome.skills === 1 ? '' : 's'} to ${outcome.where}.`,
    );
  };
  return (
    <section className="panel" aria-label="Reviewed states">
      <h2>Reviewed states</h2>
      <p className="muted small">
        A JSONL file of states written or reviewed elsewhere, one skill per line: {'{'}"name", "precondition",
        "completion"{'}'}; a line with "status": "verified" is marked verified, one with "parsed" stays a
        parse to review. States you edited or verified here are kept.
        <SampleFileHint file="sampleStates" label="sample library's states" onUse={setPath} />
      </p>
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void apply();
        }}
      >
        <input
          className="grow"
          placeholder="/path/to/states.jsonl"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          aria-label="States file"
        />
        <label className="small">
          <input type="checkbox" checked={verify} onChange={(e) => setVerify(e.target.checked)} /> mark them
          verified
        </label>
        <button type="submit" disabled={action.busy || !path.trim()}>
          Apply states
        </button>
      </form>
      {result && (
        <p className="note ok" data-testid="states-applied">
          {result}
        </p>
      )}
      <p className="muted small">
        Save this library's states in the same form, for another curator or library.
      </p>
      <div className="row wrap">
        <select
          aria-label="States to save"
          value={choice}
          onChange={(e) => setChoice(e.target.value as StatesChoice)}
        >
          {statesChoices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void save()} disabled={action.busy}>
          Save states…
        </button>
      </div>
      {saved && (
        <p className="note ok" data-testid="states-saved">
          {saved}
        </p>
      )}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </section>
  );
}
