// The gold skills of a labelled task with exactly this text (the first label set that has it), so every host can
// mark gold picks and explain gold misses without being told the label.
import type { Db } from '../store/db';

export function goldForTask(db: Db, task: string): string[] | null {
  const row = db
    .prepare('SELECT gold FROM label_items WHERE task = ? ORDER BY set_id, position LIMIT 1')
    .pluck()
    .get(task.trim()) as string | undefined;
  if (row === undefined) return null;
  try {
    const gold = JSON.parse(row) as unknown;
    return Array.isArray(gold) ? gold.map(String) : null;
  } catch {
    return null;
  }
}
