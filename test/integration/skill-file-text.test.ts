// library.file: one file of a skill as text, read as it was imported (the skill page shows an audit finding's line
// in it): SKILL.md and a script; a file changed on disk since import, a binary file and a path the skill does not
// have are said, not read.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';

let dir: string;
let core: Core;
let skillId: number;
const skillMd = '---\nname: tidy-logs\ndescription: Tidies logs.\n---\n\n# Tidy\n\nRun scripts/tidy.sh.\n';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-file-text-'));
  const skill = path.join(dir, 'lib', 'tidy-logs');
  mkdirSync(path.join(skill, 'scripts'), { recursive: true });
  mkdirSync(path.join(skill, 'assets'), { recursive: true });
  writeFileSync(path.join(skill, 'SKILL.md'), skillMd);
  writeFileSync(path.join(skill, 'scripts', 'tidy.sh'), '#!/bin/sh\nfind . -name "*.log" -delete\n');
  writeFileSync(path.join(skill, 'assets', 'logo.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  const job = await core['library.import']({ path: path.join(dir, 'lib') });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  skillId = (await core['library.get']({ name: 'tidy-logs' })).id;
}, 60_000);

afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('library.file', () => {
  it('gives SKILL.md and a script as imported', async () => {
    expect((await core['library.file']({ skillId, path: 'SKILL.md' })).text).toBe(skillMd);
    const script = await core['library.file']({ skillId, path: 'scripts/tidy.sh' });
    expect(script.text?.split('\n')[1]).toBe('find . -name "*.log" -delete');
  });

  it('says why there is no text: binary, changed since import', async () => {
    const binary = await core['library.file']({ skillId, path: 'assets/logo.bin' });
    expect(binary.text).toBeNull();
    expect(binary.unavailable).toMatch(/not text/);
    writeFileSync(path.join(dir, 'lib', 'tidy-logs', 'scripts', 'tidy.sh'), 'rm -rf ~\n');
    const changed = await core['library.file']({ skillId, path: 'scripts/tidy.sh' });
    expect(changed.text).toBeNull();
    expect(changed.unavailable).toMatch(/not found unchanged/);
  });

  it('refuses a path the skill does not have', async () => {
    for (const p of ['../../etc/passwd', 'scripts/other.sh'])
      await expect(core['library.file']({ skillId, path: p })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(core['library.file']({ skillId: 999_999, path: 'SKILL.md' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
