// The skills visited while reviewing, kept in sessionStorage so that k (back) still works after a reload, and the
// undo of a verification.
import type { CuratorClient } from '../client/client';

const key = 'skill-curator.review-trail';
const longest = 500;

// Unparsed skills have no states to verify, so the queue leaves them to "Parse N unparsed".
export const reviewStatuses = ['parsed', 'failed', 'edited'] as const;

function read(): number[] {
  try {
    const value = JSON.parse(sessionStorage.getItem(key) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((n): n is number => Number.isInteger(n)) : [];
  } catch {
    return [];
  }
}

function write(trail: number[]): void {
  sessionStorage.setItem(key, JSON.stringify(trail.slice(-longest)));
}

export function visit(id: number): void {
  const trail = read();
  if (trail[trail.length - 1] !== id) write([...trail, id]);
}

/** The skill visited before `id`, dropping `id` from the trail; undefined at the start. */
export function stepBack(id: number): number | undefined {
  const trail = read();
  const at = trail.lastIndexOf(id);
  if (at <= 0) return undefined;
  write(trail.slice(0, at));
  return trail[at - 1];
}

export function visitedCount(): number {
  return new Set(read()).size;
}

/** Puts back the states as they were before the skill's last verification. */
export async function undoVerify(client: CuratorClient, skillId: number): Promise<void> {
  const history = await client.call('states.history', { skillId });
  const last = [...history].filter((h) => h.action === 'verify' && h.before).sort((a, b) => b.id - a.id)[0];
  if (last) await client.call('states.revert', { skillId, historyId: last.id });
}
