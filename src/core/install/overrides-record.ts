// Which skillOverrides entries Skill Curator wrote, per settings file and per set (profile), kept in the library's data
// folder: a value is Skill Curator's to replace only while it is still the one recorded here, so a value set or changed
// by hand is never touched. It lives beside the library, not beside the settings, so a cloned project cannot claim that
// Skill Curator wrote its settings.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import type { InstallContext } from './install';
import { firstDuplicateKey } from './json-duplicate-keys';
import { writeFileAtomically } from './settings-file';

const FORMAT = 'skill-curator-overrides/1';

/** settings file → set → skill name → the value written. */
export type OverridesRecord = Record<string, Record<string, Record<string, string>>>;

export const recordPath = (ctx: InstallContext): string =>
  path.join(ctx.paths.dataDir, 'claude-skill-overrides.json');

const isStringMap = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every((x) => typeof x === 'string');

const isRecord = (v: unknown): v is OverridesRecord =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every(
    (sets) =>
      typeof sets === 'object' &&
      sets !== null &&
      !Array.isArray(sets) &&
      Object.values(sets).every(isStringMap),
  );

export async function readRecord(ctx: InstallContext): Promise<OverridesRecord> {
  const file = recordPath(ctx);
  const text = await fsp.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (text === null) return {};
  const bad = new CuratorError(
    'VALIDATION_FAILED',
    `${file} is not the record of skillOverrides Skill Curator writes; remove it (every override in the settings files is then left as if set by hand)`,
  );
  let parsed: { format?: unknown; files?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw bad;
  }
  if (parsed?.format !== FORMAT || !isRecord(parsed.files) || firstDuplicateKey(text) !== null) throw bad;
  return parsed.files;
}

export async function writeRecord(ctx: InstallContext, files: OverridesRecord): Promise<void> {
  await writeFileAtomically(recordPath(ctx), JSON.stringify({ format: FORMAT, files }, null, 2) + '\n', null);
}
