// Reviewed states from a JSONL file ({name, precondition, completion} per line), e.g. the sample library's
// sample-states.jsonl: without them (or an LLM) every skill stays unparsed and the selection has no graph.
import { useState } from 'react';
import { ErrorNote } from '../app/ErrorNote';
import { SampleFileHint } from '../app/SampleFileHint';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';

/** The first few of a list, so a file written for a bigger library does not flood the panel. */
const some = (items: string[]) =>
  items.slice(0, 5).join(', ') + (items.length > 5 ? `, … ${items.length - 5} more` : '');

export function ApplyStatesPanel({ onApplied }: { onApplied: () => void }) {
  const client = useClient();
  const action = useAction();
  const [path, setPath] = useState('');
  const [verify, setVerify] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const apply = async () => {
    const answer = await action.run(() => client.call('states.import', { path: path.trim(), verify }));
    if (!answer) return;
    const parts = [`Applied states to ${answer.applied} skill${answer.applied === 1 ? '' : 's'}`];
    if (answer.keptHumanEdits.length)
      parts.push(`kept your edits on ${answer.keptHumanEdits.length} (${some(answer.keptHumanEdits)})`);
    if (answer.unknownSkills.length)
      parts.push(
        `skipped ${answer.unknownSkills.length} names not in the library (${some(answer.unknownSkills)})`,
      );
    if (answer.errors.length)
      parts.push(
        `${answer.errors.length} lines could not be read (${some(answer.errors.map((e) => `line ${e.line}: ${e.message}`))})`,
      );
    setResult(`${parts.join('; ')}.`);
    onApplied();
  };
  return (
    <section className="panel" aria-label="Apply reviewed states">
      <h2>Apply reviewed states</h2>
      <p className="muted small">
        A JSONL file of states written or reviewed elsewhere, one skill per line: {'{'}"name", "precondition",
        "completion"{'}'}. States you edited or verified here are kept.
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
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </section>
  );
}
