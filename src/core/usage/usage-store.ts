// The recorded MCP calls in the library file: write one call with the skills it used, delete what is past retention,
// and read them back per skill, per period and per served profile.
import type { UsageCall, UsageCallsQuery, UsageRole, UsageSkillRow, UsageTool } from '../../shared/api/usage';
import type { Db } from '../store/db';
import type { UsagePeriod } from './usage-period';

export interface NewUsageCall {
  at: string;
  tool: UsageTool;
  query?: string | null;
  client?: string | null;
  rule: UsageCall['rule'];
  profile?: string | null;
  runId?: number | null;
  skills: { skillId: number; name: string; role: UsageRole; path?: string | null }[];
}

/** Task and query text is kept to this length: enough to recognise a call, not a copy of a long prompt. */
const MAX_QUERY_CHARS = 2000;

export function recordUsageCall(db: Db, call: NewUsageCall): number {
  const insertCall = db.prepare(
    'INSERT INTO usage_calls (at, tool, query, client, rule, profile, run_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertSkill = db.prepare(
    'INSERT INTO usage_skills (call_id, skill_id, name, role, path) VALUES (?, ?, ?, ?, ?)',
  );
  return db.transaction(() => {
    const id = Number(
      insertCall.run(
        call.at,
        call.tool,
        call.query == null ? null : call.query.slice(0, MAX_QUERY_CHARS),
        call.client ?? null,
        call.rule,
        call.profile ?? null,
        call.runId ?? null,
      ).lastInsertRowid,
    );
    for (const s of call.skills) insertSkill.run(id, s.skillId, s.name, s.role, s.path ?? null);
    return id;
  })();
}

/** Deletes the calls before `before` (an ISO time) and the skills they used; returns how many calls went. */
export function pruneUsageCalls(db: Db, before: string): number {
  return db.prepare('DELETE FROM usage_calls WHERE at < ?').run(before).changes;
}

/** The WHERE clause of a period and a served profile over usage_calls aliased c. */
function callScope(period: UsagePeriod, profile: string | undefined): { sql: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (period.from !== null) {
    parts.push('c.at >= ?');
    args.push(period.from);
  }
  if (period.to !== null) {
    parts.push('c.at < ?');
    args.push(period.to);
  }
  if (profile !== undefined) {
    parts.push("c.rule = 'profile' AND c.profile = ?");
    args.push(profile);
  }
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', args };
}

export function usageCounts(
  db: Db,
  period: UsagePeriod,
  profile: string | undefined,
): {
  calls: number;
  byTool: { tool: UsageTool; calls: number }[];
  clients: { client: string; calls: number }[];
  servedProfiles: string[];
} {
  const scope = callScope(period, profile);
  const byTool = db
    .prepare(
      `SELECT tool, count(*) AS calls FROM usage_calls c ${scope.sql} GROUP BY tool ORDER BY calls DESC, tool`,
    )
    .all(...scope.args) as { tool: UsageTool; calls: number }[];
  const clients = db
    .prepare(
      `SELECT coalesce(client, 'unknown') AS client, count(*) AS calls FROM usage_calls c ${scope.sql}
       GROUP BY 1 ORDER BY calls DESC, 1`,
    )
    .all(...scope.args) as { client: string; calls: number }[];
  const served = callScope(period, undefined);
  const servedProfiles = (
    db
      .prepare(
        `SELECT profile FROM usage_calls c ${served.sql ? `${served.sql} AND` : 'WHERE'} c.rule = 'profile'
         GROUP BY profile ORDER BY count(*) DESC, profile`,
      )
      .all(...served.args) as { profile: string }[]
  ).map((r) => r.profile);
  return { calls: byTool.reduce((n, t) => n + t.calls, 0), byTool, clients, servedProfiles };
}

/** Per skill any call in scope used: its counts by role, most selected first. */
export function usageBySkill(db: Db, period: UsagePeriod, profile: string | undefined): UsageSkillRow[] {
  const scope = callScope(period, profile);
  // With max() the only min/max aggregate, SQLite takes the bare us.name from the newest row: the name last used.
  const rows = db
    .prepare(
      `SELECT us.skill_id AS skillId, max(c.at) AS lastUsedAt, us.name AS usedName, s.name AS libraryName,
         sum(us.role = 'offered') AS offered, sum(us.role = 'selected') AS selected, sum(us.role = 'read') AS read
       FROM usage_skills us JOIN usage_calls c ON c.id = us.call_id LEFT JOIN skills s ON s.id = us.skill_id
       ${scope.sql}
       GROUP BY us.skill_id`,
    )
    .all(...scope.args) as {
    skillId: number;
    lastUsedAt: string;
    usedName: string;
    libraryName: string | null;
    offered: number;
    selected: number;
    read: number;
  }[];
  return rows
    .map((r) => ({
      skillId: r.skillId,
      name: r.libraryName ?? r.usedName,
      inLibrary: r.libraryName !== null,
      offered: r.offered,
      selected: r.selected,
      read: r.read,
      lastUsedAt: r.lastUsedAt,
    }))
    .sort(
      (a, b) =>
        b.selected - a.selected || b.read - a.read || b.offered - a.offered || a.name.localeCompare(b.name),
    );
}

/** The skills that a call in scope selected or read. */
export function usedSkillIds(db: Db, period: UsagePeriod, profile: string): Set<number> {
  const scope = callScope(period, profile);
  const rows = db
    .prepare(
      `SELECT DISTINCT us.skill_id AS id FROM usage_skills us JOIN usage_calls c ON c.id = us.call_id
       ${scope.sql} AND us.role IN ('selected', 'read')`,
    )
    .all(...scope.args) as { id: number }[];
  return new Set(rows.map((r) => r.id));
}

export function usageCallPage(
  db: Db,
  period: UsagePeriod,
  query: UsageCallsQuery,
  limit: number,
  offset: number,
): { total: number; items: UsageCall[] } {
  const scope = callScope(period, query.profile);
  const parts = scope.sql ? [scope.sql] : [];
  const args = [...scope.args];
  if (query.skillId !== undefined) {
    parts.push(
      `${parts.length > 0 ? 'AND' : 'WHERE'} c.id IN (SELECT call_id FROM usage_skills WHERE skill_id = ?${query.role ? ' AND role = ?' : ''})`,
    );
    args.push(query.skillId, ...(query.role ? [query.role] : []));
  }
  const where = parts.join(' ');
  const total = (db.prepare(`SELECT count(*) AS n FROM usage_calls c ${where}`).get(...args) as { n: number })
    .n;
  const calls = db
    .prepare(
      `SELECT id, at, tool, query, client, rule, profile, run_id AS runId FROM usage_calls c ${where}
       ORDER BY c.at DESC, c.id DESC LIMIT ? OFFSET ?`,
    )
    .all(...args, limit, offset) as Omit<UsageCall, 'skills'>[];
  const skillsOf = db.prepare(
    `SELECT us.skill_id AS skillId, coalesce(s.name, us.name) AS name, us.role, us.path
     FROM usage_skills us LEFT JOIN skills s ON s.id = us.skill_id WHERE us.call_id = ? ORDER BY us.rowid`,
  );
  return {
    total,
    items: calls.map((c) => ({ ...c, skills: skillsOf.all(c.id) as UsageCall['skills'] })),
  };
}

export function oldestUsageCall(db: Db): string | null {
  return (db.prepare('SELECT min(at) AS at FROM usage_calls').get() as { at: string | null }).at;
}
