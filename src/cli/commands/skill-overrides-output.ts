// CLI: the Claude Code skillOverrides that `profile budget --overrides` proposes or writes, in words.
import { CuratorError } from '../../shared/errors';
import {
  skillOverrideModes,
  type SkillOverrideMode,
  type SkillOverridesPreview,
  type SkillOverridesWriteResult,
} from '../../shared/install';
import { printLine } from '../output';

/** --override-mode NAME=MODE, repeatable. */
export function overrideModes(terms: string[] = []): Record<string, SkillOverrideMode> {
  const modes: Record<string, SkillOverrideMode> = {};
  for (const term of terms) {
    const at = term.lastIndexOf('=');
    const [name, mode] = [term.slice(0, at), term.slice(at + 1)];
    if (at <= 0 || !skillOverrideModes.includes(mode as SkillOverrideMode))
      throw new CuratorError(
        'INVALID_ARGUMENT',
        `--override-mode takes SKILL=MODE, MODE one of ${skillOverrideModes.join(', ')} (got "${term}")`,
      );
    Object.defineProperty(modes, name, { value: mode, enumerable: true });
  }
  return modes;
}

export function printOverrides(p: SkillOverridesPreview | SkillOverridesWriteResult): void {
  const written = 'written' in p;
  printLine(`skillOverrides in ${p.settingsFile} (${p.scope}) for ${p.set}:`);
  if (p.changes.length === 0) printLine('  (nothing cut, nothing of ours to change)');
  for (const c of p.changes) {
    const what =
      c.action === 'kept'
        ? `${c.current} — ${c.note ?? 'left as it is'}`
        : c.action === 'remove'
          ? `${c.current} → (removed)`
          : `${c.current ?? '(none)'} → ${c.proposed === 'on' ? '(none)' : c.proposed}`;
    printLine(`  ${c.action.padEnd(9)} ${c.skill}${c.fate ? ` [${c.fate}]` : ''}: ${what}`);
  }
  if (p.diff) printLine(p.diff.trimEnd());
  printLine(
    !p.changed
      ? 'the settings file already says this; nothing to write'
      : written
        ? `wrote ${p.settingsFile}`
        : 'a preview: nothing was written (--write-overrides to write it)',
  );
}
