// What earlier runs of a parsing job already did and spent, read back from its job items, so that a resumed job's
// totals (items, tokens, cost) cover the whole job and not only its last run.
import type { JobItem } from '../jobs/job-runner';
import type { TokenUsage } from './ports';

export const itemKey = (skillId: number) => `skill:${skillId}`;

/** Stored as each item's detail: its outcome and everything spent on it over all runs. */
export interface ParseItemDetail extends TokenUsage {
  outcome: 'parsed' | 'failed' | 'cached' | 'protected';
  error?: string;
}

export interface EarlierRuns {
  /** Tokens every earlier run spent, on any item. */
  spent: TokenUsage;
  spentOn(skillId: number): TokenUsage;
  statusOf(skillId: number): JobItem['status'] | undefined;
  /** Items earlier runs finished or failed whose skill the current selection no longer holds (e.g. now parsed). */
  outside(selected: ReadonlySet<number>): { done: number; failed: number };
}

export function readEarlierRuns(items: JobItem[]): EarlierRuns {
  const bySkill = new Map<number, { status: JobItem['status']; spent: TokenUsage }>();
  const spent: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  for (const item of items) {
    const match = /^skill:(\d+)$/.exec(item.key);
    if (!match) continue;
    const usage = usageOf(item.detail);
    spent.promptTokens += usage.promptTokens;
    spent.completionTokens += usage.completionTokens;
    bySkill.set(Number(match[1]), { status: item.status, spent: usage });
  }
  return {
    spent,
    spentOn: (id) => bySkill.get(id)?.spent ?? { promptTokens: 0, completionTokens: 0 },
    statusOf: (id) => bySkill.get(id)?.status,
    outside: (selected) => {
      const counts = { done: 0, failed: 0 };
      for (const [id, item] of bySkill) {
        if (selected.has(id)) continue;
        if (item.status === 'done') counts.done++;
        else if (item.status === 'failed') counts.failed++;
      }
      return counts;
    },
  };
}

function usageOf(detail: unknown): TokenUsage {
  const d = (detail ?? {}) as Partial<Record<keyof TokenUsage, unknown>>;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  return { promptTokens: n(d.promptTokens), completionTokens: n(d.completionTokens) };
}
