// Picks a task (and its hand parse) from the first label set, so the lab runs without an LLM; with no label set yet,
// a button loads the bundled sample tasks (the same as importing them in Evaluation).
import type { LabelItem } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';

function LoadSampleTasks({ onLoaded }: { onLoaded: () => void }) {
  const client = useClient();
  const action = useAction();
  const load = async () => {
    const set = await action.run(async () => {
      const { sampleTasks } = await client.call('settings.paths', {});
      return client.call('labels.import', { path: sampleTasks, name: 'sample' });
    });
    if (set) onLoaded();
  };
  return (
    <span className="muted small" data-testid="load-sample-tasks">
      Sample tasks with hand parses come from a label set (Evaluation).{' '}
      <button onClick={() => void load()} disabled={action.busy}>
        Load the sample tasks
      </button>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </span>
  );
}

/** `task`: the lab's task now; the label whose task it is stays shown as chosen (until the task is edited). */
export function SampleTaskPicker({ task, onPick }: { task: string; onPick: (item: LabelItem) => void }) {
  const sets = useApi('labels.list', {});
  const first = sets.data?.[0];
  const items = useApi('labels.get', first ? { id: first.id } : null);
  if (sets.data?.length === 0) return <LoadSampleTasks onLoaded={sets.reload} />;
  if (!items.data || items.data.items.length === 0) return null;
  return (
    <select
      aria-label="Sample task"
      value={items.data.items.find((i) => i.task === task)?.id ?? ''}
      onChange={(e) => {
        const item = items.data?.items.find((i) => i.id === e.target.value);
        if (item) onPick(item);
      }}
    >
      <option value="">Sample task from “{items.data.set.name}”…</option>
      {items.data.items.map((i) => (
        <option key={i.id} value={i.id}>
          {i.id}: {i.task.slice(0, 80)}
        </option>
      ))}
    </select>
  );
}
