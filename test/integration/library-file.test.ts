// The library file when it cannot simply be opened and written: written by a newer build, read-only, or damaged.
// Each is refused or opened read-only with a message that names the problem, and nothing is written into it.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importSource } from '../../src/core/skills/index';
import { openDb } from '../../src/core/store/db';
import { migrations } from '../../src/core/store/migrations/index';
import { repoRoot } from '../fixtures/jobs/child-process';
import { skillMd, testJob, writeSkill } from '../fixtures/skills/library-fixture';
import { registerTextFunctions } from '../../src/core/store/text-packing';

let dir: string;
let dbFile: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-libfile-'));
  chmodSync(dir, 0o755);
  dbFile = path.join(dir, 'library.db');
  const db = openDb(dbFile);
  const root = path.join(dir, 'src');
  writeSkill(root, 'pdf-report', skillMd('pdf-report', 'Writes a PDF report from tables.'));
  writeSkill(root, 'csv-clean', skillMd('csv-clean', 'Cleans CSV files.'));
  await importSource(
    { db, clock: () => new Date(), logger: { info: () => {}, warn: () => {} } },
    { path: root },
    testJob(),
  );
  db.close();
});

afterEach(() => {
  chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

// As root the CLI runs as `nobody`, who must be able to reach the checkout: a clone inside a private folder
// (mktemp -d, /root) gets search permission for others on its ancestors for the length of this file.
const restoreModes: Array<[string, number]> = [];
beforeAll(() => {
  if (process.getuid?.() !== 0) return;
  for (let d = repoRoot; d !== path.dirname(d); d = path.dirname(d)) {
    const mode = statSync(d).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      restoreModes.push([d, mode]);
      chmodSync(d, mode | 0o001);
    }
  }
});
afterAll(() => {
  for (const [d, mode] of restoreModes) chmodSync(d, mode);
});

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const latest = Math.max(...migrations.map((m) => m.id));

/** The CLI as a separate process; as root it runs as `nobody`, for whom file permissions hold. */
function cli(...args: string[]) {
  const asNobody = process.getuid?.() === 0;
  const home = mkdtempSync(path.join(os.tmpdir(), 'sc-home-'));
  chmodSync(home, 0o777);
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', '--data', dir, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, HOME: home, SKILL_CURATOR_DATA: dir },
    ...(asNobody ? { uid: 65534, gid: 65534 } : {}),
  });
  rmSync(home, { recursive: true, force: true });
  return result;
}

describe('a library written by a newer version', () => {
  it('is refused with both versions named, and left as it was', () => {
    const db = openDb(dbFile);
    db.prepare(
      "INSERT INTO schema_migrations (id, name, applied_at) VALUES (999, 'future-feature', 'x')",
    ).run();
    db.close();
    const before = hash(dbFile);
    let error: unknown;
    try {
      openDb(dbFile).close();
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'UNAVAILABLE' });
    const message = (error as Error).message;
    expect(message).toContain('newer version');
    expect(message).toContain('schema 999 "future-feature"');
    expect(message).toContain(`knows schema ${latest}`);
    expect(hash(dbFile)).toBe(before);
    expect(existsSync(path.join(dir, 'backups'))).toBe(false);

    const run = cli('list');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('newer version of Skill Curator');
  });
});

describe('a read-only library', () => {
  beforeEach(() => {
    chmodSync(dbFile, 0o444);
    chmodSync(dir, 0o555);
  });

  it('serves list and search, read-only, and says so', () => {
    const list = cli('list');
    expect(list.stderr).not.toContain('readonly database');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain('pdf-report');
    expect(list.stdout).toContain('csv-clean');
    expect(list.stderr).toContain('read-only; opened for reading');

    const search = cli('--json', 'search', 'pdf', 'report');
    expect(search.status, search.stderr).toBe(0);
    expect(search.stdout).toContain('pdf-report');
  });

  it('lists and shows profiles, read-only, and leaves the file as it was', () => {
    chmodSync(dir, 0o777);
    chmodSync(dbFile, 0o666);
    const made = cli('profile', 'create', 'reports', 'pdf-report');
    expect(made.status, made.stderr).toBe(0);
    chmodSync(dbFile, 0o444);
    chmodSync(dir, 0o555);
    const before = hash(dbFile);

    const list = cli('profile', 'list');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^reports\t1 skill\(s\)/m);
    expect(list.stderr).toContain('read-only; opened for reading');
    const show = cli('--json', 'profile', 'show', 'reports');
    expect(show.status, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ name: 'reports', skills: [{ name: 'pdf-report' }] });
    expect(hash(dbFile)).toBe(before);
    expect(readdirSync(dir).filter((f) => f.startsWith('library.db-'))).toEqual([]);
  });

  it('refuses a writing command with a clear message before it starts', () => {
    const run = cli('import', path.join(dir, 'src'));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /error UNAVAILABLE: The library .* is read-only \(the file or its folder is not writable\)/,
    );
  });
});

describe('backup and check', () => {
  it('backup copies the library with writes still in its -wal file; check reports integrity', async () => {
    chmodSync(dir, 0o777);
    chmodSync(dbFile, 0o666);
    const open = openDb(dbFile);
    try {
      const root = path.join(dir, 'more');
      writeSkill(root, 'late-skill', skillMd('late-skill', 'Added while the app is open.'));
      await importSource(
        { db: open, clock: () => new Date(), logger: { info: () => {}, warn: () => {} } },
        { path: root },
        testJob(),
      );
      expect(readFileSync(`${dbFile}-wal`).length).toBeGreaterThan(0);
      const copy = path.join(dir, 'copies', 'library-copy.db');
      const run = cli('backup', copy);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain(copy);
      const backup = new Database(copy, { readonly: true });
      try {
        expect(backup.prepare('SELECT name FROM skills ORDER BY name').pluck().all()).toEqual([
          'csv-clean',
          'late-skill',
          'pdf-report',
        ]);
      } finally {
        backup.close();
      }
      expect(cli('backup', copy).stderr).toContain('already exists');
      const check = cli('check');
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).toContain('integrity_check: ok');
    } finally {
      open.close();
    }
  });
});

describe('upgrades and damage', () => {
  /** A library as the build before the job-owner migration left it. */
  function makeOlder(): void {
    const db = openDb(dbFile);
    for (const column of ['owner_pid', 'owner_host', 'owner_id', 'heartbeat_ms'])
      db.exec(`ALTER TABLE jobs DROP COLUMN ${column}`);
    db.prepare('DELETE FROM schema_migrations WHERE id = 3').run();
    db.close();
  }

  it('copies an older library to backups/ before upgrading it', () => {
    makeOlder();
    const db = openDb(dbFile);
    db.close();
    const backups = path.join(dir, 'backups');
    const [copy] = readdirNames(backups);
    expect(copy).toMatch(/^library-schema\d+-.*\.db$/);
    const old = new Database(path.join(backups, copy!), { readonly: true });
    registerTextFunctions(old); // the check reads the generated text columns
    try {
      expect(old.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(old.prepare('SELECT COUNT(*) FROM skills').pluck().get()).toBe(2);
      expect(old.prepare('SELECT 1 FROM schema_migrations WHERE id = 3').get()).toBeUndefined();
    } finally {
      old.close();
    }
  });

  it('refuses a damaged file with the quick_check result and the last backup, and writes nothing', () => {
    makeOlder();
    openDb(dbFile).close();
    const [copy] = readdirNames(path.join(dir, 'backups'));
    // Damage the schema page: SQLite reads it first thing.
    const fd = openSync(dbFile, 'r+');
    writeSync(fd, Buffer.alloc(2000, 0x5a), 0, 2000, 100);
    closeSync(fd);
    const before = hash(dbFile);
    let error: unknown;
    try {
      openDb(dbFile).close();
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'UNAVAILABLE' });
    const message = (error as Error).message;
    expect(message).toContain('is damaged');
    expect(message).toContain('quick_check:');
    expect(message).toContain(path.join(dir, 'backups', copy!));
    expect(hash(dbFile)).toBe(before);
    expect(existsSync(`${dbFile}-wal`) ? readFileSync(`${dbFile}-wal`).length : 0).toBe(0);

    const run = cli('list');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('is damaged');
    expect(hash(dbFile)).toBe(before);
  });
});

function readdirNames(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder) : [];
}
