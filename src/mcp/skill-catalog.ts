// The served skills as SEP-2640 entries: each one's skill:// URI, its front matter verbatim, and a complete manifest of
// its files with the SHA-256 and size of the bytes resources/read serves. Only the skills the curator's rule serves are
// entries (so "verified" means as verified), and only those the extension lets a server serve: a name that breaks the
// Agent Skills naming rule cannot be a URI's last segment, and a skill over 512 files or 16 MiB is not guaranteed to
// load in any host, so such skills stay reachable through the tools alone.
import { createHash } from 'node:crypto';
import type { SkillDetail, SkillSummary } from '../shared/api';
import { CuratorError } from '../shared/errors';
import type { Core } from '../core';
import { loadPackages } from '../core/export/package-reader';
import { splitFrontMatter } from '../core/skills/front-matter';
import type { Db } from '../core/store/db';
import { filterSql, type SkillFilter } from '../core/store/library-filter';
import type { AllowedSkills } from './allowed-skills';
import {
  isCurrentUri,
  isSpecName,
  parseSkillUri,
  skillFileUri,
  type SkillPlace,
  type SkillUriParts,
} from './skill-uris';

export const maxResourcesPerSkill = 512;
export const maxBytesPerSkill = 16 * 1024 * 1024;

export interface SkillResourceRef {
  uri: string;
  /** sha256:HEX of the raw bytes. */
  digest: string;
  size: number;
}

export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: SkillResourceRef[];
}

/** A served skill found by a skill:// URI, with where it sits and the path the URI names inside it. */
export interface ResolvedSkill {
  detail: SkillDetail;
  place: SkillPlace;
  path: string;
}

const sha256 = (bytes: Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** What an entry is made of: a skill detail, or a package as the export reads it (one query for many). */
export interface EntrySkill {
  name: string;
  description: string;
  fullText: string;
  files: readonly { path: string; size: number; sha256: string }[];
}

/** SKILL.md as resources/read serves it: the library's text, as UTF-8. */
export const skillMdBytes = (skill: EntrySkill): Buffer => Buffer.from(skill.fullText, 'utf8');

/** The front matter of the SKILL.md served, as JSON: what a host parses from it, field for field. */
function frontmatterOf(skill: EntrySkill): Record<string, unknown> {
  const split = splitFrontMatter(skill.fullText, 'SKILL.md');
  const data = split.ok ? split.value.data : { name: skill.name, description: skill.description };
  return JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
}

/** Why the extension does not serve this skill, or null when it does. */
export function whyNotAnEntry(detail: EntrySkill): string | null {
  if (!isSpecName(detail.name))
    return `its name "${detail.name}" breaks the Agent Skills naming rule (lowercase letters, digits, single hyphens), so it cannot end a skill:// URI`;
  const files = detail.files.length + 1;
  const bytes = detail.files.reduce((sum, f) => sum + f.size, skillMdBytes(detail).length);
  if (files > maxResourcesPerSkill || bytes > maxBytesPerSkill)
    return `it has ${files} files of ${(bytes / 1048576).toFixed(1)} MiB, over the extension's ${maxResourcesPerSkill} files or 16 MiB per skill`;
  return null;
}

export function skillEntry(detail: EntrySkill, place: SkillPlace): SkillEntry {
  const skillMd = skillMdBytes(detail);
  return {
    uri: skillFileUri(place),
    frontmatter: frontmatterOf(detail),
    resources: [
      { uri: skillFileUri(place), digest: sha256(skillMd), size: skillMd.length },
      ...detail.files.map((f) => ({
        uri: skillFileUri(place, f.path),
        digest: `sha256:${f.sha256}`,
        size: f.size,
      })),
    ],
  };
}

/** How many served skills hold each of these names, in one query. */
function servedCounts(db: Db, filter: SkillFilter, names: readonly string[]): Map<string, number> {
  if (names.length === 0) return new Map();
  const { where, params } = filterSql(db, 's', filter);
  const rows = db
    .prepare(
      `SELECT s.name AS name, COUNT(*) AS n FROM skills s
       WHERE ${[...where, `s.name IN (${names.map(() => '?').join(',')})`].join(' AND ')} GROUP BY s.name`,
    )
    .all(...params, ...names) as { name: string; n: number }[];
  return new Map(rows.map((r) => [r.name, r.n]));
}

export interface SkillCatalog {
  /** Entries of the served skills from `offset` (the library's order), up to `limit`; `next` continues the listing. */
  page(offset: number, limit: number): Promise<{ entries: SkillEntry[]; next: number | null }>;
  /** The served skill a skill:// URI names (its root, SKILL.md, a file or a folder in it), or a clear refusal. */
  resolve(uri: string): Promise<ResolvedSkill>;
}

export function skillCatalog(core: Core, allowed: AllowedSkills): SkillCatalog {
  // Source labels name only the prefixes of shared names; listing the sources counts each one's skills, so they are
  // read only when a name is shared.
  const sourceLabels = async (anyShared: boolean): Promise<Map<number, string>> =>
    anyShared ? new Map((await core['library.sources']({})).map((s) => [s.id, s.label])) : new Map();

  const servedNamed = async (name: string): Promise<SkillSummary[]> =>
    (await core['library.list']({ ...(await allowed.filter()), name, limit: 500 })).items;

  const placeOf = (skill: SkillSummary, twins: number, labels: Map<number, string>): SkillPlace => ({
    id: skill.id,
    name: skill.name,
    sharedFrom: twins > 1 ? (labels.get(skill.sourceId) ?? '') : null,
  });

  const refuse = (uri: string, why: string): CuratorError =>
    new CuratorError('INVALID_ARGUMENT', `No skill is served at ${uri}: ${why}`);

  return {
    async page(offset, limit) {
      const filter = await allowed.filter();
      const page = await core['library.list']({ ...filter, limit, offset });
      const listed = page.items.filter((s) => isSpecName(s.name));
      const twins = servedCounts(core.context.db, filter, [...new Set(listed.map((s) => s.name))]);
      const labels = await sourceLabels([...twins.values()].some((n) => n > 1));
      const packages = new Map(
        loadPackages(
          core.context.db,
          listed.map((s) => s.id),
        ).packages.map((p) => [p.skillId, p]),
      );
      const entries: SkillEntry[] = [];
      for (const skill of listed) {
        const pkg = packages.get(skill.id);
        if (pkg && whyNotAnEntry(pkg) === null)
          entries.push(skillEntry(pkg, placeOf(skill, twins.get(skill.name) ?? 1, labels)));
      }
      const next = offset + page.items.length;
      return { entries, next: page.items.length > 0 && next < page.total ? next : null };
    },

    async resolve(uri) {
      const parts: SkillUriParts | null = parseSkillUri(uri);
      if (!parts) throw refuse(uri, 'give a skill:// URI such as skill://NAME/SKILL.md');
      const named = await servedNamed(parts.name);
      const labels = await sourceLabels(named.length > 1);
      const skill =
        parts.id === null
          ? named.length === 1
            ? named[0]
            : undefined
          : named.find((s) => s.id === parts.id);
      if (!skill) {
        if (parts.id === null && named.length > 1) {
          const uris = named.map((s) => skillFileUri(placeOf(s, named.length, labels)));
          throw refuse(
            uri,
            `${named.length} served skills are named "${parts.name}"; each has its own URI: ${uris.join(', ')}`,
          );
        }
        throw refuse(uri, allowed.sentence);
      }
      const place = placeOf(skill, named.length, labels);
      if (!isCurrentUri(parts, place)) throw refuse(uri, `that skill is now at ${skillFileUri(place)}`);
      if ((await allowed.refusals(skill.id)).length > 0) throw refuse(uri, allowed.sentence);
      const detail = await core['library.get']({ id: skill.id });
      const why = whyNotAnEntry(detail);
      if (why) throw refuse(uri, `${why}; read it with the read_skill tool`);
      return { detail, place, path: parts.path };
    },
  };
}
