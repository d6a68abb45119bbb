// The usage part of the API: what agents used of the library over MCP, read from the calls the MCP server recorded.
import type { NeverUsedSkills, UsageApi, UsageCallsQuery, UsageQuery } from '../../shared/api/usage';
import { usageRoles } from '../../shared/api/usage';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { writeNewFile } from '../export/write-new-file';
import { resolveProfileSkillIds } from '../profiles';
import { usageCallsCsv, usageSkillsCsv } from './usage-csv';
import { usagePeriod, type UsagePeriod } from './usage-period';
import {
  oldestUsageCall,
  pruneUsageCalls,
  usageBySkill,
  usageCallPage,
  usageCounts,
  usedSkillIds,
} from './usage-store';

const MAX_PAGE = 500;
/** A CSV of calls holds at most this many; a longer period is exported in parts. */
const MAX_CSV_CALLS = 100_000;

function profileOf(req: UsageQuery | undefined): string | undefined {
  const p = req?.profile;
  if (p === undefined || p === null) return undefined;
  if (typeof p !== 'string' || p.trim() === '')
    throw new CuratorError('INVALID_ARGUMENT', 'Name the profile');
  return p.trim();
}

function neverUsed(ctx: CoreContext, period: UsagePeriod, profile: string): NeverUsedSkills | null {
  let members: number[];
  try {
    members = resolveProfileSkillIds(ctx, profile);
  } catch (error) {
    // A profile deleted since it was served has no members to report.
    if (error instanceof CuratorError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
  const used = usedSkillIds(ctx.db, period, profile);
  const unused = members.filter((id) => !used.has(id));
  const names = new Map<number, string>();
  const nameOf = ctx.db.prepare('SELECT name FROM skills WHERE id = ?');
  for (const id of unused) names.set(id, (nameOf.get(id) as { name: string } | undefined)?.name ?? `#${id}`);
  return {
    profile,
    of: members.length,
    skills: unused
      .map((id) => ({ skillId: id, name: names.get(id)! }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

function callsQuery(req: UsageCallsQuery | undefined): UsageCallsQuery {
  if (req?.skillId !== undefined && !Number.isInteger(req.skillId))
    throw new CuratorError('INVALID_ARGUMENT', 'skillId is a skill id (a whole number)');
  if (req?.role !== undefined && !usageRoles.includes(req.role))
    throw new CuratorError('INVALID_ARGUMENT', `role is one of ${usageRoles.join(', ')}`);
  return { ...req, profile: profileOf(req) };
}

const day = (iso: string | null, fallback: string): string => (iso ? iso.slice(0, 10) : fallback);

export function createUsageService(ctx: CoreContext): UsageApi {
  const callsCsv = (period: UsagePeriod, profile: string | undefined): string => {
    const page = usageCallPage(ctx.db, period, { profile }, MAX_CSV_CALLS, 0);
    if (page.total > MAX_CSV_CALLS)
      throw new CuratorError(
        'INVALID_ARGUMENT',
        `The period holds ${page.total} calls; export at most ${MAX_CSV_CALLS} at a time (give a shorter period)`,
      );
    return usageCallsCsv(page.items);
  };
  return {
    'usage.summary': async (req) => {
      const now = ctx.clock();
      const retentionDays = ctx.settings.get().usage.retentionDays;
      // A shortened retention shows at once, not at the server's next call; a read-only library is read as it is.
      if (retentionDays > 0 && !ctx.db.readonly)
        pruneUsageCalls(ctx.db, new Date(now.getTime() - retentionDays * 86_400_000).toISOString());
      const period = usagePeriod(req, now);
      const profile = profileOf(req);
      const counts = usageCounts(ctx.db, period, profile);
      const profiles = profile !== undefined ? [profile] : counts.servedProfiles;
      return {
        from: period.from,
        to: period.to,
        profile: profile ?? null,
        ...counts,
        skills: usageBySkill(ctx.db, period, profile),
        neverUsed: profiles
          .map((p) => neverUsed(ctx, period, p))
          .filter((n): n is NeverUsedSkills => n !== null),
        retentionDays,
        oldestCallAt: oldestUsageCall(ctx.db),
      };
    },
    'usage.calls': async (req) => {
      const query = callsQuery(req);
      const limit = query.limit ?? 50;
      const offset = query.offset ?? 0;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
        throw new CuratorError('INVALID_ARGUMENT', `limit is 1 to ${MAX_PAGE}`);
      if (!Number.isInteger(offset) || offset < 0)
        throw new CuratorError('INVALID_ARGUMENT', 'offset is 0 or more');
      return usageCallPage(ctx.db, usagePeriod(query, ctx.clock()), query, limit, offset);
    },
    'usage.csv': async (req) => {
      if (req?.kind !== 'skills' && req?.kind !== 'calls')
        throw new CuratorError('INVALID_ARGUMENT', 'kind is skills or calls');
      const period = usagePeriod(req, ctx.clock());
      const profile = profileOf(req);
      const today = ctx.clock().toISOString().slice(0, 10);
      const span = `${day(period.from, 'start')}-to-${day(period.to, today)}`;
      const fileName = `usage-${req.kind}-${profile ? `${profile.replace(/[^A-Za-z0-9._-]/g, '_')}-` : ''}${span}.csv`;
      const text =
        req.kind === 'skills'
          ? usageSkillsCsv(usageBySkill(ctx.db, period, profile))
          : callsCsv(period, profile);
      if (req.path === undefined) return { fileName, text };
      return { fileName, text, path: await writeNewFile(req.path, text, !!req.overwrite) };
    },
  };
}
