// Our label sets name skills that are in the library they are judged on, imported as the bench imports it
// (bench/offline-targets.ts: zjunlpImportSettings). Two zjunlp gold skills live in folders named otherwise than
// their front matter; the sets named them by folder, so they were refused at import and every task needing them was
// scored a miss by every variant alike.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { zjunlpImportSettings } from '../../bench/offline-targets';
import { parseLabelJsonl } from '../../src/core/eval/label-format';
import { importSource } from '../../src/core/skills/index';
import {
  repoRoot,
  tempLibrary,
  testJob,
  zjunlpDir,
  type TempLibrary,
} from '../fixtures/skills/library-fixture';

const resources = path.join(repoRoot, 'resources');
let lib: TempLibrary | undefined;
afterEach(() => lib?.close());

async function namesIn(libraries: string[]): Promise<Set<string>> {
  lib = tempLibrary();
  for (const source of libraries)
    await importSource(
      lib.deps,
      { path: source },
      testJob(),
      source === zjunlpDir ? { settings: zjunlpImportSettings } : {},
    );
  return new Set(lib.db.prepare('SELECT name FROM skills').pluck().all() as string[]);
}

function namedIn(tasksFile: string, statesFile: string): string[] {
  const items = parseLabelJsonl(readFileSync(path.join(resources, tasksFile), 'utf8'));
  const states = readFileSync(path.join(resources, statesFile), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { name: string }).name);
  return [...new Set([...items.flatMap((i) => [...i.gold, ...(i.groups ?? []).flat()]), ...states])];
}

const withZjunlp = it.skipIf(!process.env.CI && !existsSync(zjunlpDir));

describe('the skills our label sets name', () => {
  it('are all in the sample library', async () => {
    const names = await namesIn([path.join(resources, 'sample-library')]);
    const named = namedIn('sample-tasks.jsonl', 'sample-states.jsonl');
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((n) => !names.has(n))).toEqual([]);
  });

  withZjunlp(
    'are all in the zjunlp collection, imported with names that differ from their folder',
    async () => {
      const names = await namesIn([zjunlpDir]);
      const named = namedIn('zjunlp-tasks.jsonl', 'zjunlp-states.jsonl');
      expect(named).toContain('controlled-waiting');
      expect(named).toContain('scienceworld-liquid-source-finder');
      expect(named.filter((n) => !names.has(n))).toEqual([]);
    },
    120_000,
  );

  withZjunlp(
    'the routing and no-fit sets name only zjunlp skills, gold and avoided alike',
    async () => {
      const names = await namesIn([zjunlpDir]);
      const routing = parseLabelJsonl(readFileSync(path.join(resources, 'routing-tasks.jsonl'), 'utf8'));
      const named = [...new Set(routing.flatMap((i) => [...i.gold, ...(i.avoid ?? [])]))];
      expect(routing.filter((i) => i.avoid).length).toBeGreaterThanOrEqual(25);
      expect(named.filter((n) => !names.has(n))).toEqual([]);
      const noFit = parseLabelJsonl(readFileSync(path.join(resources, 'no-fit-tasks.jsonl'), 'utf8'));
      expect(noFit.every((i) => i.gold.length === 0 && !i.avoid)).toBe(true);
    },
    120_000,
  );
});
