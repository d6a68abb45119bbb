// Claude Code skillOverrides for the entries the context budget cuts, written into a real settings file: every key
// Skill Curator did not write stays as it was and where it was, a re-write replaces only Skill Curator's own entries,
// and a file it cannot read for certain is refused with nothing written.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { previewOverrides, writeOverrides, type InstallContext } from '../../src/core/install';
import { createProfile } from '../../src/core/profiles';
import { importSource } from '../../src/core/skills/index';
import type { SkillOverridesRequest } from '../../src/shared/install';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let ctx: InstallContext;
let home: string;
let project: string;
const idOf = (name: string): number =>
  lib.db.prepare('SELECT id FROM skills WHERE name = ?').pluck().get(name) as number;
const settingsFile = (): string => path.join(project, '.claude', 'settings.json');
const settings = (): Record<string, unknown> => JSON.parse(readFileSync(settingsFile(), 'utf8'));
const places = () => ({ home, projectDir: project });
// Each entry is 27 characters: at 40 the second loses its description, at 15 it is dropped and the first is cut.
const req = (over: Partial<SkillOverridesRequest> = {}): SkillOverridesRequest => ({
  profile: 'kitchen',
  budgetChars: 40,
  settings: 'project',
  ...over,
});
const hand = {
  model: 'opus',
  skillOverrides: { 'put-object': 'off', 'cool-object': 'off' },
  permissions: { allow: ['Bash(npm test)'] },
};

beforeEach(async () => {
  lib = tempLibrary();
  home = path.join(lib.dir, 'home');
  project = path.join(lib.dir, 'project');
  mkdirSync(home);
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  ctx = {
    db: lib.db,
    clock: lib.deps.clock,
    paths: { dataDir: path.join(lib.dir, 'data'), dbFile: lib.dbFile },
  };
  const root = path.join(lib.dir, 'src');
  writeSkill(root, 'heat-object', skillMd('heat-object', 'Heats an object.'));
  writeSkill(root, 'cool-object', skillMd('cool-object', 'Cools an object.'));
  writeSkill(root, 'put-object', skillMd('put-object', 'Puts an object.'));
  await importSource(lib.deps, { path: root }, testJob());
  createProfile(lib.deps, { name: 'kitchen', skillIds: [idOf('cool-object'), idOf('heat-object')] });
});
afterEach(() => lib.close());

describe('Claude Code skillOverrides', () => {
  it('proposes name-only for an entry that loses its description, previews the diff, and writes nothing', async () => {
    writeFileSync(settingsFile(), JSON.stringify({ model: 'opus' }, null, 4) + '\n');
    const p = await previewOverrides(ctx, req(), places());
    expect(p).toMatchObject({
      settingsFile: settingsFile(),
      scope: 'project',
      set: 'profile:kitchen',
      changed: true,
    });
    expect(p.changes).toEqual([
      {
        skill: 'heat-object',
        skillId: idOf('heat-object'),
        fate: 'name-only',
        proposed: 'name-only',
        current: null,
        action: 'add',
      },
    ]);
    expect(p.diff).toContain(`--- ${settingsFile()}`);
    expect(p.diff).toContain('+    "skillOverrides": {\n+        "heat-object": "name-only"\n+    }');
    expect(p.diff).toContain('-    "model": "opus"\n+    "model": "opus",');
    expect(settings()).toEqual({ model: 'opus' });
  });

  it('writes, then re-writes after the budget changes, without touching a key it did not write', async () => {
    writeFileSync(settingsFile(), JSON.stringify(hand, null, 2) + '\n');
    const first = await writeOverrides(ctx, req(), places());
    expect(first.written).toBe(true);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(
      JSON.stringify(
        { ...hand, skillOverrides: { ...hand.skillOverrides, 'heat-object': 'name-only' } },
        null,
        2,
      ) + '\n',
    );

    // Tighter: heat-object is dropped (the /command stays), cool-object would lose its text but was set by hand.
    const tighter = await writeOverrides(ctx, req({ budgetChars: 15 }), places());
    expect(tighter.changes).toEqual([
      expect.objectContaining({
        skill: 'cool-object',
        fate: 'name-only',
        proposed: 'name-only',
        current: 'off',
        action: 'kept',
        note: 'set by hand; left as it is',
      }),
      expect.objectContaining({
        skill: 'heat-object',
        fate: 'dropped',
        proposed: 'user-invocable-only',
        current: 'name-only',
        action: 'change',
      }),
    ]);
    expect(Object.keys(settings())).toEqual(['model', 'skillOverrides', 'permissions']);
    expect(settings().skillOverrides).toEqual({
      'put-object': 'off',
      'cool-object': 'off',
      'heat-object': 'user-invocable-only',
    });

    // Roomy: nothing is cut, so Skill Curator's own entry goes and the hand-set ones stay.
    const roomy = await writeOverrides(ctx, req({ budgetChars: 8000 }), places());
    expect(roomy.changes.map((c) => `${c.skill}:${c.action}`)).toEqual([
      'cool-object:kept',
      'heat-object:remove',
    ]);
    expect(settings()).toEqual(hand);
    const again = await writeOverrides(ctx, req({ budgetChars: 8000 }), places());
    expect(again).toMatchObject({ written: false, changed: false, diff: '' });
  });

  it('leaves an entry it wrote once the user changed it, and takes the mode the user picks', async () => {
    await writeOverrides(ctx, req({ budgetChars: 15 }), places());
    expect(settings()).toEqual({
      skillOverrides: { 'cool-object': 'name-only', 'heat-object': 'user-invocable-only' },
    });
    const edited = settings();
    (edited.skillOverrides as Record<string, string>)['heat-object'] = 'off';
    writeFileSync(settingsFile(), JSON.stringify(edited, null, 2) + '\n');
    const r = await writeOverrides(ctx, req({ budgetChars: 15, modes: { 'cool-object': 'off' } }), places());
    expect(r.changes).toEqual([
      expect.objectContaining({ skill: 'cool-object', proposed: 'off', action: 'change' }),
      expect.objectContaining({
        skill: 'heat-object',
        action: 'kept',
        note: 'changed by hand since Skill Curator wrote "user-invocable-only"; left as it is',
      }),
    ]);
    expect(settings()).toEqual({ skillOverrides: { 'cool-object': 'off', 'heat-object': 'off' } });
    // "on" is Claude Code's default: picking it takes Skill Curator's entry out again.
    await writeOverrides(ctx, req({ budgetChars: 15, modes: { 'cool-object': 'on' } }), places());
    expect(settings()).toEqual({ skillOverrides: { 'heat-object': 'off' } });
  });

  it('writes the local and the user settings files, creating them when there are none', async () => {
    await writeOverrides(ctx, req({ settings: 'local' }), places());
    expect(JSON.parse(readFileSync(path.join(project, '.claude', 'settings.local.json'), 'utf8'))).toEqual({
      skillOverrides: { 'heat-object': 'name-only' },
    });
    const user = await writeOverrides(ctx, req({ settings: undefined, target: 'claude' }), places());
    expect(user.settingsFile).toBe(path.join(home, '.claude', 'settings.json'));
    expect(existsSync(user.settingsFile)).toBe(true);
    expect(existsSync(settingsFile())).toBe(false);
  });

  it('refuses invalid JSON, a key given twice, a link and a skillOverrides that is no object, writing nothing', async () => {
    const cases: [string, RegExp][] = [
      ['{"model": "opus",}', /is not valid JSON .*nothing was written/],
      ['{"model": "opus", "model": "sonnet"}', /holds the key "model" twice/],
      ['{"skillOverrides": {"a": "off", "a": "on"}}', /holds the key "a" twice/],
      ['["not", "an", "object"]', /does not hold a JSON object/],
      ['{"skillOverrides": ["heat-object"]}', /"skillOverrides" is not an object/],
    ];
    for (const [text, error] of cases) {
      writeFileSync(settingsFile(), text);
      await expect(writeOverrides(ctx, req(), places())).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(error),
      });
      await expect(previewOverrides(ctx, req(), places())).rejects.toThrow(error);
      expect(readFileSync(settingsFile(), 'utf8')).toBe(text);
    }
    const real = path.join(lib.dir, 'real-settings.json');
    writeFileSync(real, '{}');
    writeFileSync(settingsFile(), '');
    const local = path.join(project, '.claude', 'settings.local.json');
    symlinkSync(real, local);
    await expect(writeOverrides(ctx, req({ settings: 'local' }), places())).rejects.toThrow(/is a link/);
    expect(readFileSync(real, 'utf8')).toBe('{}');
  });

  it('refuses a write when the file changed since the preview, and an agent that is not Claude Code', async () => {
    writeFileSync(settingsFile(), '{}\n');
    const p = await previewOverrides(ctx, req(), places());
    writeFileSync(settingsFile(), '{"model": "opus"}\n');
    await expect(writeOverrides(ctx, { ...req(), expectDigest: p.digest }, places())).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/changed since the preview; nothing was written/),
    });
    expect(readFileSync(settingsFile(), 'utf8')).toBe('{"model": "opus"}\n');
    await expect(previewOverrides(ctx, req({ agent: 'codex' }), places())).rejects.toThrow(
      /skillOverrides is a Claude Code setting/,
    );
    await expect(previewOverrides(ctx, req({ modes: { 'put-object': 'off' } }), places())).rejects.toThrow(
      /"put-object" is not a skill of profile:kitchen/,
    );
    await expect(
      previewOverrides(ctx, req({ modes: { 'heat-object': 'hidden' as never } }), places()),
    ).rejects.toThrow(/Unknown override "hidden" for heat-object/);
  });
});
