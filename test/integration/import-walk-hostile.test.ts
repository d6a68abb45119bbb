// Hostile folder trees against the real walk, real files and a real SQLite library. Each describe names the class of
// fault; a finding rejects its own skill with a named rule and file, and the skills beside it are still imported.
import { linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../src/shared/jobs';
import { defaultSettings } from '../../src/shared/settings';
import { importSource, latestImportReport, listSkills, searchKeyword } from '../../src/core/skills/index';
import type { ImportJob, ImportReport } from '../../src/core/skills/types';
import { mkfifo, overlongPath, releaseFifo, symlinkChain } from '../fixtures/skills/hostile-tree';
import {
  skillMd,
  tempLibrary,
  testJob,
  writeSkill,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let root: string;
const fifos: string[] = [];
const undo: (() => void)[] = [];
beforeEach(() => {
  lib = tempLibrary();
  root = path.join(lib.dir, 'src');
  writeSkill(root, 'a-good', skillMd('a-good', 'Imported before the trouble.'));
  writeSkill(root, 'z-good', skillMd('z-good', 'Imported after the trouble.'));
});
afterEach(() => {
  fifos.splice(0).forEach(releaseFifo); // the starting code waits in open() on these; let it go on
  undo.splice(0).forEach((f) => f());
  lib.close();
});

const names = () =>
  listSkills(lib.db)
    .items.map((s) => s.name)
    .sort();
const rejectedAs = (r: ImportReport) =>
  Object.fromEntries(r.rejected.map((x) => [x.relPath, x.issues.map((i) => [i.rule, i.file])]));

/** A job whose report runs `hook` on every progress: the test acts at a known point of the import, not at a time. */
function hookedJob(hook: (p: JobProgress) => void, controller = new AbortController()): ImportJob {
  return {
    signal: controller.signal,
    report: (p) => hook(p),
  };
}
const listing = (p: JobProgress, rel: string) => p.message?.startsWith(`Reading ${rel} (`) === true;

describe('class: files that vanish or change while the source is read', () => {
  it('a file, a SKILL.md or a folder that vanishes or is swapped during the walk rejects its skill only', async () => {
    writeSkill(root, 'gone-md', skillMd('gone-md', 'Loses its SKILL.md.'));
    writeSkill(root, 'gone-ref', skillMd('gone-ref', 'Loses a reference.'), { 'references/x.md': 'x' });
    writeSkill(root, 'gone-dir', skillMd('gone-dir', 'Loses a folder.'), { 'scripts/run.sh': 'echo' });
    writeSkill(root, 'to-dir', skillMd('to-dir', 'A file becomes a folder.'), { 'references/x.md': 'x' });
    writeSkill(root, 'to-link', skillMd('to-link', 'A folder becomes a link out.'), {
      'references/x.md': 'x',
    });
    const outside = path.join(lib.dir, 'outside');
    writeSkill(lib.dir, 'outside', skillMd('outside', 'Not in the source.'), { 'references/s.md': 'secret' });
    const job = hookedJob((p) => {
      if (listing(p, 'to-link')) {
        rmSync(path.join(root, 'to-link/references'), { recursive: true });
        symlinkSync(path.join(outside, 'references'), path.join(root, 'to-link/references'));
      }
      if (listing(p, 'gone-md')) unlinkSync(path.join(root, 'gone-md/SKILL.md'));
      if (listing(p, 'gone-ref/references')) unlinkSync(path.join(root, 'gone-ref/references/x.md'));
      if (listing(p, 'gone-dir')) rmSync(path.join(root, 'gone-dir/scripts'), { recursive: true });
      if (listing(p, 'to-dir/references')) {
        unlinkSync(path.join(root, 'to-dir/references/x.md'));
        mkdirSync(path.join(root, 'to-dir/references/x.md'));
      }
    });
    const report = await importSource(lib.deps, { path: root }, job);
    expect(rejectedAs(report)).toEqual({
      'gone-dir': [['file-vanished', 'gone-dir/scripts']],
      'gone-md': [['file-vanished', 'gone-md/SKILL.md']],
      'gone-ref': [['file-vanished', 'gone-ref/references/x.md']],
      'to-dir': [['not-a-regular-file', 'to-dir/references/x.md']],
      'to-link': [['file-changed-during-import', 'to-link/references']],
    });
    expect(report.rejected.find((r) => r.relPath === 'gone-md')!.issues[0]!.message).toBe(
      'file gone-md/SKILL.md vanished while the source was read',
    );
    expect(names()).toEqual(['a-good', 'z-good']);
    expect(latestImportReport(lib.db, report.sourceId)?.rejected).toHaveLength(5);
  });

  it('a file that vanishes, becomes a folder or a link out of the source after it was listed rejects its skill only', async () => {
    const secret = path.join(lib.dir, 'outside-secret.txt');
    writeFileSync(secret, 'root:x:0:0:swapped-in-secret-marker');
    writeSkill(root, 'b-gone', skillMd('b-gone', 'SKILL.md vanishes.'));
    writeSkill(root, 'c-to-dir', skillMd('c-to-dir', 'A file becomes a folder.'), { 'references/x.md': 'x' });
    writeSkill(root, 'd-to-link', skillMd('d-to-link', 'A file becomes a link out.'), {
      'references/x.md': 'harmless',
    });
    // After the first skill is loaded every other one has been listed and none has been read yet.
    const job = hookedJob((p) => {
      if (p.done !== 1) return;
      unlinkSync(path.join(root, 'b-gone/SKILL.md'));
      unlinkSync(path.join(root, 'c-to-dir/references/x.md'));
      mkdirSync(path.join(root, 'c-to-dir/references/x.md'));
      unlinkSync(path.join(root, 'd-to-link/references/x.md'));
      symlinkSync(secret, path.join(root, 'd-to-link/references/x.md'));
    });
    const report = await importSource(lib.deps, { path: root }, job);
    expect(rejectedAs(report)).toEqual({
      'b-gone': [['file-vanished', 'b-gone/SKILL.md']],
      'c-to-dir': [['not-a-regular-file', 'c-to-dir/references/x.md']],
      'd-to-link': [['file-changed-during-import', 'd-to-link/references/x.md']],
    });
    expect(names()).toEqual(['a-good', 'z-good']);
    expect(searchKeyword(lib.db, { query: 'swapped-in-secret-marker' }).total).toBe(0);
  });

  it('a path too long to open rejects its skill, not the import', async () => {
    writeSkill(root, 'deep', skillMd('deep', 'Holds a path longer than PATH_MAX.'));
    undo.push(overlongPath(path.join(root, 'deep/references')));
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(report.rejected).toEqual([
      expect.objectContaining({
        relPath: 'deep',
        issues: [expect.objectContaining({ rule: 'path-too-long' })],
      }),
    ]);
    expect(names()).toEqual(['a-good', 'z-good']);
  });
});

describe('class: walks that never end', () => {
  it('bounds a symlink chain without a loop (two links per level) by the folder-visit setting', async () => {
    writeSkill(root, 'm-chain', skillMd('m-chain', 'Sits on 2^24 ways down.'));
    symlinkChain(path.join(root, 'm-chain/references'), 24);
    const report = await importSource(lib.deps, { path: root }, testJob(), {
      settings: { folderMaxVisits: 500 },
    });
    expect(rejectedAs(report)['m-chain']).toEqual([
      ['folder-too-many-visits', expect.stringMatching(/^m-chain\/references\//)],
    ]);
    expect(report.rejected[0]!.issues[0]!.message).toContain('import.folderMaxVisits');
    // The walk stopped before z-good: it is not read, and nothing is removed for not being seen.
    expect(names()).toEqual(['a-good']);
    expect(defaultSettings().import.folderMaxVisits).toBe(20_000);
  }, 60_000);

  it('a skill with a folder past the stop is rejected whole, never imported without it', async () => {
    writeSkill(root, 'n-parent', skillMd('n-parent', 'Its scripts lie past the stop.'), {
      'scripts/run.sh': 'echo hi',
    });
    writeSkill(root, 'n-parent/chain', skillMd('chain', 'A nested skill on 2^12 ways down.'));
    symlinkChain(path.join(root, 'n-parent/chain/references'), 12);
    const report = await importSource(lib.deps, { path: root }, testJob(), {
      settings: { folderMaxVisits: 40 },
    });
    expect(rejectedAs(report)).toEqual({
      'n-parent': [['folder-walk-stopped', 'n-parent/scripts']],
      'n-parent/chain': [['folder-too-many-visits', expect.stringMatching(/^n-parent\/chain\/references\//)]],
    });
    expect(names()).toEqual(['a-good']);
  }, 60_000);

  it('a walk is cancelled by the job signal; the report is stored and nothing is removed', async () => {
    const first = await importSource(lib.deps, { path: root }, testJob());
    expect(first.added).toHaveLength(2);
    writeSkill(root, 'm-chain', skillMd('m-chain', 'Sits on 2^24 ways down.'));
    symlinkChain(path.join(root, 'm-chain/references'), 24);
    const controller = new AbortController();
    let foldersAtCancel = 0;
    const job = hookedJob((p) => {
      const read = Number(/\((\d+) folders so far\)/.exec(p.message ?? '')?.[1] ?? 0);
      if (read >= 100 && !controller.signal.aborted) {
        foldersAtCancel = read;
        controller.abort();
      }
    }, controller);
    const report = await importSource(lib.deps, { path: root }, job);
    expect(foldersAtCancel).toBe(100);
    expect(report.cancelled).toBe(true);
    expect(latestImportReport(lib.db, report.sourceId)?.cancelled).toBe(true);
    expect(names()).toEqual(['a-good', 'z-good']);
  }, 60_000);
});

describe('class: non-regular files', () => {
  it('refuses a FIFO given as the source, whatever its name or kind, without opening it', async () => {
    for (const [name, kind] of [
      ['pipe', undefined],
      ['pipe.md', undefined],
      ['pipe.zip', undefined],
      ['pipe.jsonl', 'jsonl'],
      ['pipe2', 'file'],
    ] as const) {
      const fifo = mkfifo(path.join(lib.dir, name));
      fifos.push(fifo);
      await expect(importSource(lib.deps, { path: fifo, kind }, testJob())).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('FIFO'),
      });
    }
  }, 20_000);

  it('rejects the skill that holds a FIFO, a FIFO named SKILL.md or a link to a FIFO; ignores one beside the skills', async () => {
    writeSkill(root, 'piped', skillMd('piped', 'Has a FIFO.'));
    fifos.push(mkfifo(path.join(root, 'piped/references/pipe.md')));
    fifos.push(mkfifo(path.join(root, 'fifo-md/SKILL.md')));
    writeSkill(root, 'linked', skillMd('linked', 'Links to a FIFO.'));
    fifos.push(mkfifo(path.join(root, 'pipes/p')));
    mkdirSync(path.join(root, 'linked/references'));
    symlinkSync(path.join(root, 'pipes/p'), path.join(root, 'linked/references/p.md'));
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(rejectedAs(report)).toEqual({
      'fifo-md': [['not-a-regular-file', 'fifo-md/SKILL.md']],
      linked: [['not-a-regular-file', 'linked/references/p.md']],
      piped: [['not-a-regular-file', 'piped/references/pipe.md']],
    });
    expect(report.rejected[0]!.issues[0]!.message).toContain('FIFO');
    expect(names()).toEqual(['a-good', 'z-good']);
  }, 20_000);

  it('a file swapped for a FIFO after the walk listed it is refused, not waited on', async () => {
    writeSkill(root, 'b-swap', skillMd('b-swap', 'A file becomes a FIFO.'), { 'references/x.md': 'x' });
    const target = path.join(root, 'b-swap/references/x.md');
    const job = hookedJob((p) => {
      if (p.done !== 1) return;
      unlinkSync(target);
      fifos.push(mkfifo(target));
    });
    const report = await importSource(lib.deps, { path: root }, job);
    expect(rejectedAs(report)).toEqual({ 'b-swap': [['not-a-regular-file', 'b-swap/references/x.md']] });
    expect(names()).toEqual(['a-good', 'z-good']);
  }, 20_000);
});

describe('class: hard links out of the source', () => {
  function plant(): string {
    const outside = path.join(lib.dir, 'etc');
    mkdirSync(outside);
    const passwd = path.join(outside, 'passwd');
    writeFileSync(passwd, 'root:x:0:0:hardlinked-secret-marker:/root:/bin/sh\n');
    writeSkill(root, 'leaky', skillMd('leaky', 'Hard-links a file from outside.'));
    mkdirSync(path.join(root, 'leaky/references'));
    linkSync(passwd, path.join(root, 'leaky/references/passwd.md'));
    // Two names of one file, both inside the source: nothing escapes.
    writeSkill(root, 'twins', skillMd('twins', 'Two links, both inside.'), {
      'references/a.md': 'twin text',
    });
    linkSync(path.join(root, 'twins/references/a.md'), path.join(root, 'twins/references/b.md'));
    return passwd;
  }

  it('rejects a skill holding a hard link whose other name lies outside the source', async () => {
    plant();
    const report = await importSource(lib.deps, { path: root }, testJob());
    expect(rejectedAs(report)).toEqual({
      leaky: [['hardlink-outside-source', 'leaky/references/passwd.md']],
    });
    expect(report.rejected[0]!.issues[0]!.message).toContain('2 names, 1 of them in the source');
    expect(names()).toEqual(['a-good', 'twins', 'z-good']);
    expect(searchKeyword(lib.db, { query: 'hardlinked-secret-marker' }).total).toBe(0);
    expect(searchKeyword(lib.db, { query: 'twin' }).total).toBe(1);
  });

  it('imports it with a warning when the setting says warning', async () => {
    const passwd = plant();
    const report = await importSource(lib.deps, { path: root }, testJob(), {
      settings: { hardlinkOutsideSource: 'warning' },
    });
    expect(report.rejected).toEqual([]);
    expect(report.warnings).toEqual([
      expect.objectContaining({
        name: 'leaky',
        issues: [
          expect.objectContaining({ rule: 'hardlink-outside-source', file: 'leaky/references/passwd.md' }),
        ],
      }),
    ]);
    expect(readFileSync(passwd, 'utf8')).toContain('hardlinked-secret-marker');
    expect(names()).toEqual(['a-good', 'leaky', 'twins', 'z-good']);
  });
});
