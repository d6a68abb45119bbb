// Migration 009's partial index of the open conflicts: library.stats and the sources list count them from it (not
// from the conflict rows, whose incoming JSON stands before resolved_at), the counts follow a resolution, and the
// import's look-up of one place still uses the place index.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { listSources } from '../../src/core/store/library-repo';
import { openConflicts } from '../fixtures/skills/conflicting-sources';

let dir: string;
let core: Core;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-open-conflicts-'));
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
});
afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const plan = (sql: string) =>
  (core.context.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1) as { detail: string }[])
    .map((r) => r.detail)
    .join(' | ');

describe('the open conflicts index', () => {
  it('answers the counts of library.stats and keeps them right after a resolution', async () => {
    const { secondSourceId } = await openConflicts(core, dir, 5);
    const stats = await core['library.stats']({});
    expect(stats.openConflicts).toBe(5);
    const pending = () => listSources(core.context.db).find((s) => s.id === secondSourceId)?.pendingConflicts;
    expect(pending()).toBe(5);

    const [first] = await core['library.conflicts']({});
    await core['library.resolveConflict']({ id: first!.id, resolution: 'skip' });
    expect((await core['library.stats']({})).openConflicts).toBe(4);
    expect(pending()).toBe(4);

    expect(
      plan('SELECT COUNT(*) AS n FROM import_conflicts WHERE source_id = ? AND resolved_at IS NULL'),
    ).toContain('import_conflicts_open');
    expect(plan('SELECT COUNT(*) AS n FROM import_conflicts WHERE resolved_at IS NULL AND 1 = ?')).toContain(
      'import_conflicts_open',
    );
    expect(
      plan(
        "SELECT id FROM import_conflicts WHERE source_id = ? AND rel_path = 'x' AND resolved_at IS NULL ORDER BY id DESC LIMIT 1",
      ),
    ).toContain('import_conflicts_place');
  });
});
