// Which files of one package cannot sit side by side in a folder: a file where another needs a folder
// ("references" and "references/x.md"), or two names that are one name once Unicode-normalised (NFC/NFD twins, which
// macOS keeps as one file). The first in path order is kept; each other one is refused with the reason.

export interface ClashRefusal {
  file: string;
  reason: string;
}

export function refuseClashes<T extends { file: string }>(
  files: readonly T[],
): { kept: T[]; refused: ClashRefusal[] } {
  const ordered = [...files].sort((a, b) => rank(a.file) - rank(b.file) || compare(a.file, b.file));
  const fileKeys = new Map<string, string>();
  const folderKeys = new Map<string, string>();
  const kept: T[] = [];
  const refused: ClashRefusal[] = [];
  for (const f of ordered) {
    const key = f.file.normalize('NFC');
    const parts = key.split('/');
    const twin = fileKeys.get(key);
    const blockingFile = parts
      .slice(0, -1)
      .map((_, i) => parts.slice(0, i + 1).join('/'))
      .find((prefix) => fileKeys.has(prefix));
    const reason =
      twin === f.file
        ? 'the package lists this path twice'
        : twin !== undefined
          ? `its name is the same as "${twin}" once Unicode-normalised (NFC); many file systems hold only one of them`
          : blockingFile !== undefined
            ? `"${fileKeys.get(blockingFile)}" is a file in this package, so it cannot also be a folder`
            : folderKeys.has(key)
              ? `a folder of this name holds "${folderKeys.get(key)}"`
              : null;
    if (reason) {
      refused.push({ file: f.file, reason });
      continue;
    }
    kept.push(f);
    fileKeys.set(key, f.file);
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (!folderKeys.has(folder)) folderKeys.set(folder, f.file);
    }
  }
  return { kept, refused };
}

/** SKILL.md first: it is the skill, whatever else clashes with it. */
const rank = (p: string): number => (p === 'SKILL.md' ? 0 : 1);
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
