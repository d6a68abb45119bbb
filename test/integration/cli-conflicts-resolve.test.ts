// `conflicts resolve` of the real CLI on a real library file (prepared and read in this process between CLI runs): a
// dry run lists what each open conflict would do and changes nothing, --all --keep-both answers them all, a replace
// over a curator's edits stays open until --overwrite-edits, the one-conflict form still works, and a request without
// a resolution is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/harness';
import { createCore, type Core } from '../../src/core';
import { type CliResult, runCli } from '../fixtures/run-cli';
import { conflictName, openConflicts } from '../fixtures/skills/conflicting-sources';

let dir: string;
const dataDir = () => path.join(dir, 'data');

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-conflicts-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): Promise<CliResult> {
  return runCli(dataDir(), args);
}

/** Reads (or prepares) the library in this process, between CLI runs: each CLI run is slow to start. */
async function withLibrary<T>(use: (core: Core) => Promise<T>): Promise<T> {
  const core = createCore({ dataDir: dataDir(), resourcesDir: path.join(repoRoot, 'resources') });
  try {
    return await use(core);
  } finally {
    await core.close();
  }
}

/** Four open conflicts, one over a skill whose states a curator edited (clash-0002). */
const prepare = () => withLibrary((core) => openConflicts(core, dir, 4, [2]));
const openNames = () => withLibrary(async (core) => (await core['library.conflicts']({})).map((c) => c.name));
const openIds = () => withLibrary(async (core) => (await core['library.conflicts']({})).map((c) => c.id));

describe('CLI conflicts resolve', () => {
  it('lists each open conflict with the source it came from, and says how to resolve them', async () => {
    await prepare();
    const [conflict] = await withLibrary(async (core) => core['library.conflicts']({}));
    const label = await withLibrary(
      async (core) => (await core['library.sources']({})).find((s) => s.id === conflict!.sourceId)!.label,
    );
    const list = await cli('conflicts');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(
      `#${conflict!.id} clash-0000: clash-0000 from source ${conflict!.sourceId} (${label}) vs skill ${conflict!.existingSkillId}`,
    );
    expect(list.stdout).toContain('many: conflicts resolve --all --keep-both');
  }, 60_000);

  it('show NAME after a keep-both says which other skill has that name', async () => {
    await prepare();
    const [conflict] = await withLibrary(async (core) => core['library.conflicts']({}));
    const kept = await cli('conflicts', 'resolve', String(conflict!.id), 'keep-both');
    expect(kept.code, kept.stderr).toBe(0);
    // The line names the copy it wrote, so a curator can open it.
    const copy = /^conflict #\d+ resolved: keep-both -> skill (\d+) \(show (\d+)\)$/m.exec(kept.stdout);
    expect(copy?.[1], kept.stdout).toBe(copy?.[2]);
    expect(Number(copy![1])).not.toBe(conflict!.existingSkillId);
    const shown = await cli('show', conflictName(0));
    expect(shown.stdout).toContain(`#${copy![1]}`);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(
      new RegExp(
        `note: 2 skills are named ${conflictName(0)}; this is the newest\\. Others: #${conflict!.existingSkillId} \\(`,
      ),
    );
  }, 60_000);

  it('lists what a replace would change in a dry run, then resolves, leaving edited skills until told', async () => {
    await prepare();
    const ids = await openIds();
    const openNamesBefore = await openNames();
    const dry = await cli('conflicts', 'resolve', '--all', '--replace', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`#${ids[0]} clash-0000 at clash-0000: would replace`);
    expect(dry.stdout).toContain('content-replaced "clash-0002" (edited by a curator)');
    expect(dry.stdout).toMatch(
      /dry run: 4 conflicts would be resolved \(replace\), 1 curator-edited skill would change, 0 not; nothing was changed/,
    );
    expect(await openIds()).toEqual(ids);

    // The one-conflict form that import and `conflicts` suggest is refused over a curator's edits the same way.
    const edited = ids[openNamesBefore.indexOf(conflictName(2))]!;
    const one = await cli('conflicts', 'resolve', String(edited), 'replace');
    expect(one.code).toBe(1);
    expect(one.stdout).toContain(
      `conflict #${edited} not resolved: Resolving conflict ${edited} with replace would change`,
    );
    expect(one.stdout).toContain('run again with --overwrite-edits');
    expect(one.stderr).toBe('');
    expect(await openIds()).toEqual(ids);

    const done = await cli('conflicts', 'resolve', '--all', '--replace');
    expect(done.code).toBe(1);
    expect(done.stdout).toContain('3 conflicts resolved (replace), 1 not resolved');
    expect(done.stdout).toContain('run again with --overwrite-edits');
    expect(await openNames()).toEqual([conflictName(2)]);

    const forced = await cli('conflicts', 'resolve', '--all', '--replace', '--overwrite-edits');
    expect(forced.code, forced.stdout).toBe(0);
    expect(forced.stdout).toContain(
      '1 conflict resolved (replace), 1 curator-edited skill changed, 0 not resolved',
    );
    expect(await openNames()).toEqual([]);
  }, 120_000);

  it('keeps both for listed ids or all, reports ids already resolved, keeps the one-conflict form, and refuses a request without a resolution or conflicts', async () => {
    await prepare();
    const ids = await openIds();
    const none = await cli('conflicts', 'resolve', '--all');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Say how to resolve: keep-both, replace or skip');
    const which = await cli('conflicts', 'resolve', '--skip');
    expect(which.stderr).toContain('error INVALID_ARGUMENT: Say which conflicts');
    const typo = await cli('conflicts', 'resolve', String(ids[0]), 'keepboth');
    expect([typo.code, typo.stderr]).toEqual([
      1,
      expect.stringContaining(
        '"keepboth" is neither a conflict id nor a resolution (keep-both, replace or skip)',
      ),
    ]);
    expect(await openIds()).toEqual(ids);

    const one = await cli('conflicts', 'resolve', String(ids[0]), 'skip');
    expect(one.stdout.trim()).toBe(`conflict #${ids[0]} resolved: skip`);
    const some = await cli('--json', 'conflicts', 'resolve', String(ids[0]), String(ids[1]), '--keep-both');
    expect(some.code).toBe(1);
    const result = JSON.parse(some.stdout) as {
      resolved: number;
      items: { outcome: string; error?: { code: string } }[];
    };
    expect(result.resolved).toBe(1);
    expect(result.items.map((i) => [i.outcome, i.error?.code])).toEqual([
      ['failed', 'CONFLICT'],
      ['resolved', undefined],
    ]);
    const all = await cli('conflicts', 'resolve', '--all', '--keep-both');
    expect(all.stdout).toContain('2 conflicts resolved (keep-both), 0 not resolved');
    expect(await withLibrary(async (core) => (await core['library.stats']({})).skills)).toBe(4 + 3);
  }, 120_000);
});
