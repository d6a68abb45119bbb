// Picks a task (and its hand parse) from the first label set, so the lab runs without an LLM.
import type { LabelItem } from '../../../shared/api';
import { useApi } from '../app/use-api';

export function SampleTaskPicker({ onPick }: { onPick: (item: LabelItem) => void }) {
  const sets = useApi('labels.list', {});
  const first = sets.data?.[0];
  const items = useApi('labels.get', first ? { id: first.id } : null);
  if (!items.data || items.data.items.length === 0) return null;
  return (
    <select
      aria-label="Sample task"
      value=""
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
