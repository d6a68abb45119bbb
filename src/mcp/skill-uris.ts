// The skill:// URIs this server serves (SEP-2640): skill://NAME/FILE for a name that one served skill holds. When several
// served skills share a name (kept-both conflicts, forks), none of them takes the plain URI; each is
// skill://SOURCE.ID/NAME/FILE, with its source's label and its library id as the prefix. A skill name has no dot, so a
// first segment with one is always a prefix and the two forms can never be read as each other.
import { nameProblems } from '../core/skills/validate';

/** The Agent Skills naming rule, as the import checks it: 1-64 lowercase letters, digits and single hyphens. */
export function isSpecName(name: string): boolean {
  return name !== '' && nameProblems(name).length === 0;
}

export interface SkillPlace {
  id: number;
  name: string;
  /** Set when other served skills share the name: the label of this one's source. */
  sharedFrom: string | null;
}

function prefixOf(place: SkillPlace): string {
  const slug = (place.sharedFrom ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${slug || 'source'}.${place.id}`;
}

/** The skill's root directory: skill://NAME or skill://SOURCE.ID/NAME (no trailing slash). */
function skillRootUri(place: SkillPlace): string {
  return place.sharedFrom === null ? `skill://${place.name}` : `skill://${prefixOf(place)}/${place.name}`;
}

export function skillFileUri(place: SkillPlace, file = 'SKILL.md'): string {
  return `${skillRootUri(place)}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

/** A skill:// URI read back: the skill it names (by name, and by id for a prefixed one) and the path inside it. */
export interface SkillUriParts {
  name: string;
  /** The library id a prefixed URI carries; null for skill://NAME/… */
  id: number | null;
  /** The prefix as written (checked against the one the skill has now). */
  prefix: string | null;
  /** The path inside the skill, '' for its root. */
  path: string;
}

export function parseSkillUri(uri: string): SkillUriParts | null {
  const match = /^skill:\/\/([^/?#]+)(?:\/([^?#]*))?$/.exec(uri);
  if (!match) return null;
  let segments: string[];
  try {
    segments = [match[1]!, ...(match[2] ? match[2].split('/') : [])].map(decodeURIComponent);
  } catch {
    return null;
  }
  if (segments.some((s) => s === '')) return null;
  const first = segments[0]!;
  if (!first.includes('.')) return { name: first, id: null, prefix: null, path: segments.slice(1).join('/') };
  const id = Number(first.slice(first.lastIndexOf('.') + 1));
  if (!Number.isSafeInteger(id) || id <= 0 || segments.length < 2) return null;
  return { name: segments[1]!, id, prefix: first, path: segments.slice(2).join('/') };
}

/** Whether a parsed URI is the one the skill has now (a prefix from before a relabel or twin change is not). */
export function isCurrentUri(parts: SkillUriParts, place: SkillPlace): boolean {
  return (
    parts.name === place.name &&
    (place.sharedFrom === null ? parts.id === null : parts.prefix === prefixOf(place))
  );
}
