// The CLI's delete and trash, as a newcomer met them: a delete of several skills names them (in `delete`, `trash`,
// its JSON and `undo`), and a delete that pushes an old unreviewed delete out of the trash says which can no longer
// be restored. The real CLI on a library whose trash a core filled first.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { type CliResult, runCli } from '../fixtures/run-cli';

let dir: string;
let dataDir: string;
const names = Array.from({ length: 24 }, (_, i) => `task-${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-delete-'));
  dataDir = path.join(dir, 'data');
  const skills = path.join(dir, 'skills');
  for (const name of names) {
    mkdirSync(path.join(skills, name), { recursive: true });
    writeFileSync(
      path.join(skills, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Does ${name}.\n---\n\nBody of ${name}.\n`,
    );
  }
  const core = createCore({ dataDir, resourcesDir: path.resolve('resources') });
  const job = await core['library.import']({ path: skills });
  expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
  // Twenty deletes of one skill each: the trash is full.
  for (const name of names.slice(0, 20))
    await core['sources.delete']({ skillIds: [(await core['library.get']({ name })).id] });
  await core.close();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<CliResult> {
  const result = await runCli(dataDir, args);
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

describe('CLI delete and trash', () => {
  it('names the skills of a delete of several, and says which old delete it pushed out of the trash', async () => {
    const deleted = (await cli('skill', 'delete', 'task-20', 'task-21', '--yes')).stdout;
    expect(deleted).toContain('deleted task-20, task-21; `undo` restores them\n');
    expect(deleted).toMatch(
      /The oldest delete in the trash \(task-00, deleted \d{4}-\d\d-\d\d \d\d:\d\d\) can no longer be restored: the trash keeps the last 20/,
    );

    const listed = (await cli('trash')).stdout;
    expect(listed).toMatch(/^#\d+ {2}\S+ {2}task-20, task-21 {2}2 skills$/m);
    expect(listed).not.toContain('task-00');
    const json = JSON.parse((await cli('--json', 'trash')).stdout) as { id: number; label: string }[];
    expect(json[0]!.label).toBe('task-20, task-21');
    // No "0 of them with reviewed states" when none has.
    expect((await cli('trash', 'empty', String(json[0]!.id))).stdout).toBe(
      'would delete for good 1 delete: 2 skills; add --yes\n',
    );

    const one = (await cli('--json', 'skill', 'delete', 'task-22', '--yes')).stdout;
    expect(JSON.parse(one)).toMatchObject({
      label: 'task-22',
      evicted: [expect.objectContaining({ label: 'task-01' })],
    });
    expect((await cli('undo')).stdout).toContain('restored task-22 (1 skill)');
    expect((await cli('undo')).stdout).toContain('restored task-20, task-21 (2 skills)');
  }, 120_000);
});
