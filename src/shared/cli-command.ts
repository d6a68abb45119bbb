// A command line for the CLI on the library a host serves (`skill-curator --data DIR [--db FILE] ...`), each word
// quoted for a POSIX shell where it needs it: a command without --data would read another library.
const slashed = (p: string) => p.replace(/\\/g, '/');

/** A shell word: bare when it is safe, else in single quotes. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `--data` (a placeholder where the host did not say its folder) and `--db` where the file is not the default. */
export function libraryArgs(where: { dataDir?: string; dbFile?: string }): string[] {
  const { dataDir, dbFile } = where;
  return [
    ...['--data', dataDir ?? 'DATA_FOLDER'],
    ...(dbFile && dataDir && slashed(dbFile) !== `${slashed(dataDir)}/library.db` ? ['--db', dbFile] : []),
  ];
}

export function cliCommand(where: { dataDir?: string; dbFile?: string }, args: string[]): string {
  return ['skill-curator', ...[...libraryArgs(where), ...args].map(shellWord)].join(' ');
}
