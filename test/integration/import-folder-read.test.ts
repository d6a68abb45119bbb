// A folder source reads each SKILL.md into a buffer the size it was listed at, and still reads all of a file that grew
// after the walk listed it, up to the cap, past which the skill is rejected.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFolderSource } from '../../src/core/skills/sources/folder';
import { defaultImportSettings } from '../../src/core/skills/types';
import { skillMd, tempLibrary, writeSkill, type TempLibrary } from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
beforeEach(() => (lib = tempLibrary()));
afterEach(() => lib.close());

async function loadAfterGrowth(extra: string, cap: number) {
  const root = path.join(lib.dir, 'src');
  writeSkill(root, 'growing', skillMd('growing', 'Grows after listing.'));
  const limits = { ...defaultImportSettings, skillMdMaxBytes: cap };
  const opened = await openFolderSource(root, limits, new AbortController().signal);
  appendFileSync(path.join(root, 'growing', 'SKILL.md'), extra);
  const [item] = opened.items;
  if (item?.type !== 'candidate') throw new Error('expected one candidate');
  return item.load();
}

describe('folder source reads', () => {
  it('reads the whole of a SKILL.md that grew after it was listed', async () => {
    const extra = `\n${'More steps. '.repeat(2000)}\n`;
    const loaded = await loadAfterGrowth(extra, 1024 * 1024);
    expect(loaded.ok).toBe(true);
    if (loaded.ok) expect(loaded.skill.body.endsWith(extra)).toBe(true);
  });

  it('rejects a SKILL.md that grew past the cap after it was listed', async () => {
    const loaded = await loadAfterGrowth('x'.repeat(10_000), 4096);
    expect(loaded).toMatchObject({ ok: false, issues: [{ rule: 'skill-md-too-large' }] });
  });
});
