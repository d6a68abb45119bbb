// A parse estimate in words ("120 skills to send · about 96,000 tokens · $0.07"), and when it needs a confirmation.
import type { ParseEstimate } from '../../../shared/api';

/** A parse from the Library asks first above either of these. */
export const confirmAbove = { cost: 0.5, skills: 200 };

export function needsConfirmation(e: ParseEstimate): boolean {
  return e.cost > confirmAbove.cost || e.toSend > confirmAbove.skills;
}

export function costWords(cost: number, tokens = 1): string {
  if (tokens === 0) return '$0.00';
  if (cost === 0) return 'no cost set (add prices in Settings)';
  return cost < 0.01 ? 'under $0.01' : `$${cost.toFixed(2)}`;
}

export function estimateWords(e: ParseEstimate): string {
  const tokens = e.promptTokens + e.completionTokens;
  const parts = [
    `${e.toSend} skill${e.toSend === 1 ? '' : 's'} to send`,
    `about ${tokens.toLocaleString('en-US')} tokens`,
    costWords(e.cost, tokens),
  ];
  if (e.kept > 0) parts.push(`${e.kept} edited or verified kept`);
  if (e.cached > 0) parts.push(`${e.cached} reused from cache`);
  if (e.basis === 'default') parts.push('estimated without past parses');
  return parts.join(' · ');
}
