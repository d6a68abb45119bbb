// `settings set a.b=value ...`: each assignment checked against the current settings (an unknown key is an error that
// names the keys there are, never silently ignored), its value read as the type the setting has, nested keys included.
import { CuratorError } from '../shared/errors';
import type { Settings, SettingsPatch } from '../shared/settings';

export interface SettingChange {
  key: string;
  from: unknown;
  to: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function valueAs(current: unknown, raw: string): unknown {
  if (typeof current === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  // A number, or a nullable one now off (selection.abstainBelow.*), where "null" turns it off.
  if (typeof current === 'number' || current === null) {
    if (raw.trim() !== '' && !Number.isNaN(Number(raw))) return Number(raw);
    if (raw === 'null') return null;
  }
  return raw; // a string setting, or a value of the wrong type the settings schema then names
}

export function settingsPatchFrom(
  current: Settings,
  assignments: string[],
): { patch: SettingsPatch; changes: SettingChange[] } {
  const patch: Obj = {};
  const changes: SettingChange[] = [];
  for (const a of assignments) {
    const m = /^([a-zA-Z]+(?:\.[a-zA-Z]+)+)=(.*)$/s.exec(a);
    if (!m) throw new CuratorError('INVALID_ARGUMENT', `Expected section.key=value, got "${a}"`);
    const keys = m[1]!.split('.');
    // Walk the current settings and the patch side by side; the patch starts each section from its current values.
    let here: unknown = current;
    let into: Obj = patch;
    keys.forEach((key, i) => {
      if (!isObj(here) || !(key in here)) {
        const where = keys.slice(0, i).join('.');
        const known = isObj(here) ? Object.keys(here).join(', ') : '';
        throw new CuratorError(
          'INVALID_ARGUMENT',
          `Unknown setting "${m[1]}": ${known ? `${where || 'settings'} has ${known}` : `${where} is a value, not a section`} (settings show lists them all)`,
        );
      }
      const value = here[key];
      if (i === keys.length - 1) {
        into[key] = valueAs(value, m[2]!);
        changes.push({ key: m[1]!, from: value, to: into[key] });
      } else {
        if (!isObj(value))
          throw new CuratorError(
            'INVALID_ARGUMENT',
            `Unknown setting "${m[1]}": ${keys.slice(0, i + 1).join('.')} is a value, not a section`,
          );
        into[key] = isObj(into[key]) ? into[key] : i === 0 ? {} : { ...value };
        into = into[key] as Obj;
      }
      here = value;
    });
  }
  return { patch: patch as SettingsPatch, changes };
}
