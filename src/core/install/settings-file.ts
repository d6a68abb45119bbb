// A Claude Code settings file, read strictly and written whole. Skill Curator rewrites a file only when it can say
// what every byte of it means: plain JSON of one object, no key given twice (JSON.parse would silently keep the last),
// a regular file and not a link (which would make it write somewhere else). The indent and line ending are kept.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import { firstDuplicateKey } from './json-duplicate-keys';

/** Far larger than any settings file; a bigger one is not something to rewrite by program. */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

export interface SettingsFile {
  file: string;
  /** The text as read; null when the file does not exist yet. */
  text: string | null;
  digest: string | null;
  /** The parsed object: own keys in file order ("__proto__" included, as data). */
  value: Record<string, unknown>;
  indent: string;
  eol: '\n' | '\r\n';
  finalNewline: boolean;
  /** The file's permission bits, kept by the rewrite. */
  mode: number | null;
}

const refused = (file: string, why: string): CuratorError =>
  new CuratorError(
    'VALIDATION_FAILED',
    `${file} ${why}, so Skill Curator will not rewrite it; nothing was written`,
  );

export const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex');

export async function readSettings(file: string): Promise<SettingsFile> {
  const stat = await fsp.lstat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (stat === null)
    return {
      file,
      text: null,
      digest: null,
      value: {},
      indent: '  ',
      eol: '\n',
      finalNewline: true,
      mode: null,
    };
  if (stat.isSymbolicLink())
    throw refused(file, 'is a link (edit the file it points to by hand, or replace the link with a file)');
  if (!stat.isFile()) throw refused(file, 'is not a file');
  if (stat.size > MAX_SETTINGS_BYTES) throw refused(file, 'is too large to be a settings file');
  const text = await fsp.readFile(file, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw refused(file, `is not valid JSON (${(e as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw refused(file, 'does not hold a JSON object');
  const repeated = firstDuplicateKey(text);
  if (repeated !== null) throw refused(file, `holds the key ${JSON.stringify(repeated)} twice`);
  return {
    file,
    text,
    digest: digestOf(text),
    value: value as Record<string, unknown>,
    indent: /\n([ \t]+)"/.exec(text)?.[1] ?? '  ',
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    finalNewline: /\n$/.test(text),
    mode: stat.mode & 0o7777,
  };
}

/** The settings as text, in the file's own indent and line ending. */
export function settingsText(read: SettingsFile, value: Record<string, unknown>): string {
  const text = JSON.stringify(value, null, read.indent.slice(0, 10)) + (read.finalNewline ? '\n' : '');
  return read.eol === '\r\n' ? text.replace(/\n/g, '\r\n') : text;
}

/** Writes beside the file and renames over it, so Claude Code never reads half a file. */
export async function writeFileAtomically(file: string, text: string, mode: number | null): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await fsp.writeFile(tmp, text, { flag: 'wx', mode: mode ?? 0o644 });
    if (mode !== null) await fsp.chmod(tmp, mode);
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}
