// Usage as CSV for a spreadsheet. Task and query text comes from agents, so a cell that a spreadsheet would read as
// a formula (=, +, -, @, tab, CR first) is written with a leading apostrophe (OWASP's CSV injection advice).
import type { UsageCall, UsageSkillRow } from '../../shared/api/usage';

type Cell = string | number | boolean | null;

export function csvCell(value: Cell): string {
  if (value === null) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csv = (header: string[], rows: Cell[][]): string =>
  [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';

export function usageSkillsCsv(rows: UsageSkillRow[]): string {
  return csv(
    ['skill_id', 'name', 'in_library', 'offered', 'selected', 'read', 'last_used_at'],
    rows.map((r) => [r.skillId, r.name, r.inLibrary, r.offered, r.selected, r.read, r.lastUsedAt]),
  );
}

/** One row per (call, skill); a call that used no skill (skills/list, a search with no hits) gets one row. */
export function usageCallsCsv(calls: UsageCall[]): string {
  const rows: Cell[][] = [];
  for (const c of calls) {
    const head: Cell[] = [c.id, c.at, c.tool, c.client, c.rule, c.profile, c.query, c.runId];
    if (c.skills.length === 0) rows.push([...head, null, null, null, null]);
    for (const s of c.skills) rows.push([...head, s.skillId, s.name, s.role, s.path]);
  }
  return csv(
    [
      'call_id',
      'at',
      'tool',
      'client',
      'rule',
      'profile',
      'query',
      'run_id',
      'skill_id',
      'skill',
      'role',
      'path',
    ],
    rows,
  );
}
