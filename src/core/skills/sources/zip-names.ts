// Entry names of a zip as paths: which are unsafe, their one normal spelling, and which are ambiguous (the same path
// twice, or two paths that one disk would take as one: case or Unicode twins on macOS and Windows, a file that is also a
// folder). An ambiguous skill is refused: keeping the first copy would import content the archive does not single out.

/** Why a (backslash-normalised) entry name is unsafe to use as a path, or null when it is safe. */
export function unsafeName(name: string): string | null {
  if (name.startsWith('/')) return 'is an absolute path';
  if (/^[a-zA-Z]:/.test(name)) return 'starts with a drive letter';
  if (name.split('/').includes('..')) return 'climbs out of the archive with ".."';
  if (name.includes('\0')) return 'contains a NUL character';
  return null;
}

/** One spelling per path: `./a//b/./c` is `a/b/c`. Only for names that unsafeName accepts. */
export function normalEntryName(name: string): string {
  return name
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

export interface NamedEntry {
  /** The normal spelling. */
  name: string;
  /** As written in the archive (after backslashes became slashes). */
  raw: string;
  crc32: number;
  size: number;
}

export interface AmbiguousName {
  name: string;
  rule: 'zip-duplicate-entry' | 'zip-name-collision';
  message: string;
}

/** Every entry whose path is ambiguous, with the rule and a message that names the other spelling. */
export function ambiguousNames(entries: readonly NamedEntry[]): AmbiguousName[] {
  const found = new Map<string, AmbiguousName>();
  const byName = new Map<string, NamedEntry[]>();
  for (const e of entries) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
  for (const [name, copies] of byName) {
    if (copies.length < 2) continue;
    const differ = copies.some((c) => c.crc32 !== copies[0]!.crc32 || c.size !== copies[0]!.size);
    const written = [...new Set(copies.map((c) => `"${c.raw}"`))];
    found.set(name, {
      name,
      rule: 'zip-duplicate-entry',
      message:
        `the archive holds "${name}" ${copies.length} times` +
        (written.length > 1 ? ` (as ${written.join(', ')})` : '') +
        (differ ? ' with different content' : '') +
        '; which copy is meant is ambiguous, so this skill is not imported',
    });
  }

  // Every path and folder prefix, keyed by how a case-insensitive, Unicode-normalising disk would see it.
  const spellings = new Map<string, Set<string>>();
  const keysOf = new Map<string, string[]>();
  const fileAndFolder = new Set<string>();
  for (const name of byName.keys()) {
    const parts = name.split('/');
    const keys = parts.map((_, i) => {
      const place = parts.slice(0, i + 1).join('/');
      if (i < parts.length - 1 && byName.has(place)) fileAndFolder.add(place);
      const key = place.normalize('NFC').toLowerCase();
      spellings.set(key, (spellings.get(key) ?? new Set()).add(place));
      return key;
    });
    keysOf.set(name, keys);
  }
  for (const [name, keys] of keysOf) {
    if (found.has(name)) continue;
    const parts = name.split('/');
    for (const [i, key] of keys.entries()) {
      const own = parts.slice(0, i + 1).join('/');
      const others = [...spellings.get(key)!].filter((p) => p !== own);
      if (others.length > 0) {
        found.set(name, {
          name,
          rule: 'zip-name-collision',
          message: `"${own}" and "${others[0]}" differ only by case or Unicode form: one disk (macOS, Windows) takes them as one, so this skill is not imported`,
        });
        break;
      }
      if (fileAndFolder.has(own)) {
        found.set(name, {
          name,
          rule: 'zip-name-collision',
          message: `"${own}" is both a file and a folder in the archive, so this skill is not imported`,
        });
        break;
      }
    }
  }
  return [...found.values()];
}
