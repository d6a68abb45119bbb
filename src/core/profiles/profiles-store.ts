// Profiles in the library file: create, edit, list, and the skill ids a profile stands for right now.
import { CuratorError } from '../../shared/errors';
import type {
  ProfileCreateRequest,
  ProfileDetail,
  ProfileFilter,
  ProfileMember,
  ProfileOriginKind,
  ProfileSummary,
  ProfileUpdateRequest,
} from '../../shared/profiles';
import type { CoreContext } from '../context';
import type { Db } from '../store/db';
import { skillIdsOfEvalRun, skillIdsOfSelectionRun } from './from-runs';
import { checkFilter, skillIdsMatching } from './profile-filter';

/** What the profile functions need of the core: any CoreContext will do. */
export type ProfilesContext = Pick<CoreContext, 'db' | 'clock'>;

interface ProfileRow {
  id: number;
  name: string;
  description: string;
  filter: string | null;
  origin_kind: ProfileOriginKind;
  origin_id: number | null;
  origin_note: string | null;
  created_at: string;
  updated_at: string;
}

const namePattern = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;

export function checkProfileName(name: unknown): string {
  const n = typeof name === 'string' ? name.trim() : '';
  if (!namePattern.test(n))
    throw new CuratorError(
      'INVALID_ARGUMENT',
      'A profile name is 1-64 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit',
    );
  return n;
}

function rowOf(db: Db, name: string): ProfileRow {
  const row = db.prepare('SELECT * FROM profiles WHERE name = ?').get(String(name).trim()) as
    ProfileRow | undefined;
  if (!row) throw new CuratorError('NOT_FOUND', `No profile named "${name}"`);
  return row;
}

function memberIds(db: Db, row: ProfileRow): { ids: number[]; hand: Set<number>; excluded: Set<number> } {
  const marks = db
    .prepare('SELECT skill_id, included FROM profile_skills WHERE profile_id = ?')
    .all(row.id) as {
    skill_id: number;
    included: number;
  }[];
  const hand = new Set(marks.filter((m) => m.included === 1).map((m) => m.skill_id));
  const excluded = new Set(marks.filter((m) => m.included === 0).map((m) => m.skill_id));
  const ids = new Set(hand);
  if (row.filter !== null)
    for (const id of skillIdsMatching(db, JSON.parse(row.filter) as ProfileFilter))
      if (!excluded.has(id)) ids.add(id);
  return { ids: [...ids], hand, excluded };
}

function summaryOf(db: Db, row: ProfileRow): ProfileSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    filter: row.filter === null ? null : (JSON.parse(row.filter) as ProfileFilter),
    origin: { kind: row.origin_kind, id: row.origin_id, note: row.origin_note },
    skillCount: memberIds(db, row).ids.length,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function listProfiles(ctx: ProfilesContext): ProfileSummary[] {
  const rows = ctx.db.prepare('SELECT * FROM profiles ORDER BY name COLLATE NOCASE').all() as ProfileRow[];
  return rows.map((r) => summaryOf(ctx.db, r));
}

/** The library ids (skills.id) of the profile's skills now, ordered by skill name. */
export function resolveProfileSkillIds(ctx: ProfilesContext, name: string): number[] {
  const { ids } = memberIds(ctx.db, rowOf(ctx.db, name));
  if (ids.length === 0) return [];
  return ctx.db
    .prepare('SELECT id FROM skills WHERE id IN (SELECT value FROM json_each(?)) ORDER BY name, id')
    .pluck()
    .all(JSON.stringify(ids)) as number[];
}

export function getProfile(ctx: ProfilesContext, name: string): ProfileDetail {
  const row = rowOf(ctx.db, name);
  const { ids, hand, excluded } = memberIds(ctx.db, row);
  const named = (list: number[]): { id: number; name: string; description: string }[] =>
    ctx.db
      .prepare(
        'SELECT id, name, description FROM skills WHERE id IN (SELECT value FROM json_each(?)) ORDER BY name, id',
      )
      .all(JSON.stringify(list)) as { id: number; name: string; description: string }[];
  const skills: ProfileMember[] = named(ids).map((s) => ({ ...s, via: hand.has(s.id) ? 'hand' : 'filter' }));
  return {
    ...summaryOf(ctx.db, row),
    skills,
    excluded: named([...excluded]).map(({ id, name: n }) => ({ id, name: n })),
  };
}

function assertSkillsExist(db: Db, ids: readonly number[]): void {
  const bad = ids.filter((id) => !Number.isInteger(id));
  if (bad.length > 0) throw new CuratorError('INVALID_ARGUMENT', 'Skill ids are whole numbers');
  const found = new Set(
    db
      .prepare('SELECT id FROM skills WHERE id IN (SELECT value FROM json_each(?))')
      .pluck()
      .all(JSON.stringify(ids)) as number[],
  );
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length > 0)
    throw new CuratorError('NOT_FOUND', `No skill with id ${unknown.join(', ')}`, { skillIds: unknown });
}

function mark(db: Db, profileId: number, ids: readonly number[], included: 0 | 1, now: string): void {
  const upsert = db.prepare(
    `INSERT INTO profile_skills (profile_id, skill_id, included, added_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (profile_id, skill_id) DO UPDATE SET included = excluded.included, added_at = excluded.added_at`,
  );
  for (const id of ids) upsert.run(profileId, id, included, now);
}

export function createProfile(
  ctx: ProfilesContext,
  req: ProfileCreateRequest,
): { profile: ProfileDetail; notFound: string[] } {
  const name = checkProfileName(req.name);
  const sources = [
    req.skillIds !== undefined,
    req.filter !== undefined,
    req.fromRun !== undefined,
    req.fromEval !== undefined,
  ];
  if (sources.filter(Boolean).length > 1 && (req.fromRun !== undefined || req.fromEval !== undefined))
    throw new CuratorError('INVALID_ARGUMENT', 'Make a profile from one run at a time, then add to it');
  const filter = req.filter === undefined ? null : checkFilter(req.filter);
  let ids = [...new Set(req.skillIds ?? [])];
  let notFound: string[] = [];
  let origin: { kind: ProfileOriginKind; id: number | null; note: string | null } = {
    kind: filter ? 'filter' : 'manual',
    id: null,
    note: null,
  };
  if (req.fromRun !== undefined) {
    ({ ids, unknown: notFound } = skillIdsOfSelectionRun(ctx.db, req.fromRun));
    origin = { kind: 'selection-run', id: req.fromRun, note: null };
  } else if (req.fromEval !== undefined) {
    const { runId, variant, k } = req.fromEval;
    ({ ids, unknown: notFound } = skillIdsOfEvalRun(ctx.db, runId, { variant, k }));
    const note = [variant && `variant ${variant}`, k !== undefined && `k=${k}`].filter(Boolean).join(', ');
    origin = { kind: 'eval-run', id: runId, note: note || null };
  }
  assertSkillsExist(ctx.db, ids);
  const now = ctx.clock().toISOString();
  const description = typeof req.description === 'string' ? req.description.trim() : '';
  ctx.db.transaction(() => {
    if (ctx.db.prepare('SELECT 1 FROM profiles WHERE name = ?').get(name) !== undefined)
      throw new CuratorError('CONFLICT', `A profile named "${name}" exists already`);
    const info = ctx.db
      .prepare(
        `INSERT INTO profiles (name, description, filter, origin_kind, origin_id, origin_note, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        name,
        description,
        filter && JSON.stringify(filter),
        origin.kind,
        origin.id,
        origin.note,
        now,
        now,
      );
    mark(ctx.db, Number(info.lastInsertRowid), ids, 1, now);
  })();
  return { profile: getProfile(ctx, name), notFound };
}

export function updateProfile(ctx: ProfilesContext, req: ProfileUpdateRequest): ProfileDetail {
  const row = rowOf(ctx.db, req.name);
  const now = ctx.clock().toISOString();
  let name = row.name;
  ctx.db.transaction(() => {
    if (req.rename !== undefined) {
      name = checkProfileName(req.rename);
      const other = ctx.db.prepare('SELECT id FROM profiles WHERE name = ?').pluck().get(name);
      if (other !== undefined && other !== row.id)
        throw new CuratorError('CONFLICT', `A profile named "${name}" exists already`);
    }
    let filter = row.filter;
    if (req.filter === null && row.filter !== null) {
      // The matches of the dropped filter stay, as members added by hand.
      const { ids } = memberIds(ctx.db, row);
      ctx.db.prepare('DELETE FROM profile_skills WHERE profile_id = ?').run(row.id);
      mark(ctx.db, row.id, ids, 1, now);
      filter = null;
    } else if (req.filter !== undefined && req.filter !== null) {
      filter = JSON.stringify(checkFilter(req.filter));
    }
    const description = req.description === undefined ? row.description : String(req.description).trim();
    ctx.db
      .prepare('UPDATE profiles SET name = ?, description = ?, filter = ?, updated_at = ? WHERE id = ?')
      .run(name, description, filter, now, row.id);
  })();
  return getProfile(ctx, name);
}

export function addToProfile(ctx: ProfilesContext, name: string, skillIds: readonly number[]): ProfileDetail {
  const row = rowOf(ctx.db, name);
  assertSkillsExist(ctx.db, skillIds);
  const now = ctx.clock().toISOString();
  ctx.db.transaction(() => {
    mark(ctx.db, row.id, skillIds, 1, now);
    ctx.db.prepare('UPDATE profiles SET updated_at = ? WHERE id = ?').run(now, row.id);
  })();
  return getProfile(ctx, row.name);
}

/** Removes skills: a hand-added one is forgotten, a filter match is kept out from now on. */
export function removeFromProfile(
  ctx: ProfilesContext,
  name: string,
  skillIds: readonly number[],
): ProfileDetail {
  const row = rowOf(ctx.db, name);
  const { ids } = memberIds(ctx.db, row);
  const current = new Set(ids);
  const absent = skillIds.filter((id) => !current.has(id));
  if (absent.length > 0)
    throw new CuratorError('NOT_FOUND', `Profile "${row.name}" has no skill with id ${absent.join(', ')}`);
  const now = ctx.clock().toISOString();
  ctx.db.transaction(() => {
    if (row.filter === null) {
      const del = ctx.db.prepare('DELETE FROM profile_skills WHERE profile_id = ? AND skill_id = ?');
      for (const id of skillIds) del.run(row.id, id);
    } else mark(ctx.db, row.id, skillIds, 0, now);
    ctx.db.prepare('UPDATE profiles SET updated_at = ? WHERE id = ?').run(now, row.id);
  })();
  return getProfile(ctx, row.name);
}

export function deleteProfile(ctx: ProfilesContext, name: string): void {
  const row = rowOf(ctx.db, name);
  ctx.db.prepare('DELETE FROM profiles WHERE id = ?').run(row.id);
}

/** Library ids of skills named so (the newest skill of each name); unknown names are a clear error. */
export function skillIdsByName(ctx: ProfilesContext, names: readonly string[]): number[] {
  const byName = ctx.db
    .prepare('SELECT id FROM skills WHERE name = ? ORDER BY updated_at DESC, id DESC LIMIT 1')
    .pluck();
  const unknown: string[] = [];
  const ids = names.map((n) => {
    const id = byName.get(n) as number | undefined;
    if (id === undefined) unknown.push(n);
    return id ?? -1;
  });
  if (unknown.length > 0)
    throw new CuratorError('NOT_FOUND', `No skill named ${unknown.map((n) => `"${n}"`).join(', ')}`);
  return ids;
}
