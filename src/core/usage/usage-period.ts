// The period a usage question covers, from what a person types: a date (2026-12-01), a time (2026-12-01T09:30Z),
// or, in the CLI, a span back from now (30d, 12h). `to` given as a date includes that whole day.
import { CuratorError } from '../../shared/errors';

export interface UsagePeriod {
  /** ISO time, inclusive; null: from the oldest kept call. */
  from: string | null;
  /** ISO time, exclusive; null: up to now. */
  to: string | null;
}

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const spanPattern = /^(\d{1,5})([dh])$/;

function instant(given: string, what: 'from' | 'to', now: Date): string {
  const text = given.trim();
  const span = spanPattern.exec(text);
  if (span) {
    if (what === 'to')
      throw new CuratorError('INVALID_ARGUMENT', `Give "to" as a date or time, not a span ("${given}")`);
    const hours = Number(span[1]) * (span[2] === 'd' ? 24 : 1);
    return new Date(now.getTime() - hours * 3_600_000).toISOString();
  }
  const ms = Date.parse(datePattern.test(text) ? `${text}T00:00:00Z` : text);
  if (!Number.isFinite(ms) || !/^\d{4}-\d{2}-\d{2}/.test(text))
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `"${given}" is not a date (2026-12-01), a time (2026-12-01T09:30:00Z) or, for "from", a span back from now (30d, 12h)`,
    );
  // A date as the end of a period means up to the end of that day.
  return new Date(datePattern.test(text) && what === 'to' ? ms + 86_400_000 : ms).toISOString();
}

export function usagePeriod(req: { from?: string; to?: string } | undefined, now: Date): UsagePeriod {
  const from = req?.from ? instant(req.from, 'from', now) : null;
  const to = req?.to ? instant(req.to, 'to', now) : null;
  if (from !== null && to !== null && from >= to)
    throw new CuratorError('INVALID_ARGUMENT', `The period starts (${from}) after it ends (${to})`);
  return { from, to };
}
