// The path of large libraries (persisted statistics, FTS5 candidates, sampled backgrounds) answers as the whole
// library held in memory does, when the sample is the whole library and the candidates hold every matching skill:
// on the sample library with its states, every sample task's recall and every variant's selection are the same.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLabelJsonl } from '../../src/core/eval/label-format';
import { candidateDepth } from '../../src/core/models/lexical/bounded-recall';
import { createLexicalCrossEncoder } from '../../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall } from '../../src/core/models/lexical/lexical-recall';
import { libraryIndex, sampledFrom } from '../../src/core/models/lexical/library-index-cache';
import { recallCandidates } from '../../src/core/select/recall';
import { crossEncoderScoreProvider } from '../../src/core/select/score-provider';
import { selectSkills } from '../../src/core/select/select';
import { loadSkillsForSelection } from '../../src/core/select/skill-source';
import { importSource } from '../../src/core/skills/importer';
import { importStatesFile } from '../../src/core/states/import-states';
import { openDb, type Db } from '../../src/core/store/db';
import { repoRoot, skillMd, testJob, writeSkill } from '../fixtures/skills/library-fixture';

const resources = path.join(repoRoot, 'resources');
const tasks = parseLabelJsonl(readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8'));
const clock = () => new Date('2026-06-01T00:00:00Z');
let dir: string;
let file: string;
const saved = { ...sampledFrom };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lexical-bounded-'));
  file = path.join(dir, 'library.db');
  const db = openDb(file);
  const deps = { db, clock, logger: { info: () => {}, warn: () => {} } };
  await importSource(deps, { path: path.join(resources, 'sample-library') }, testJob());
  await importStatesFile(db, clock, { path: path.join(resources, 'sample-states.jsonl'), verify: true });
  db.close();
});
afterAll(() => {
  Object.assign(sampledFrom, saved);
  rmSync(dir, { recursive: true, force: true });
});

/** Each task's recall and its selections, on a fresh connection (the engines' cache is per connection). */
async function answers(bounded: boolean) {
  Object.assign(sampledFrom, bounded ? { skills: 0, sample: 1_000_000 } : saved);
  const db: Db = openDb(file);
  try {
    const scorer = crossEncoderScoreProvider(createLexicalCrossEncoder(db));
    const out = [];
    for (const task of tasks) {
      const recall = lexicalRecall(db, task.task, 30);
      const { input } = await recallCandidates(
        task.task,
        task.parse ?? null,
        30,
        (q, k) => lexicalRecall(db, q, k),
        (ids) => loadSkillsForSelection(db, ids),
      );
      const selections = [];
      for (const variant of ['full', 'no-graph', 'no-split'] as const) {
        const trace = await selectSkills(input, scorer, { variant });
        selections.push({
          answer: trace.answer,
          ranking: trace.ranking.map((r) => [r.candidate, Number(r.score.toFixed(9))]),
        });
      }
      out.push({
        recall: recall.map((h) => [h.skillId, Number(h.score.toFixed(9))]),
        selections,
      });
    }
    return { out, size: libraryIndex(db).size, held: libraryIndex(db).ids.length };
  } finally {
    db.close();
  }
}

describe('lexical engines on the persisted statistics', () => {
  it('answer every sample task as the in-memory index does', async () => {
    expect(candidateDepth.skills).toBeGreaterThan(48);
    const memory = await answers(false);
    const bounded = await answers(true);
    expect(bounded.size).toBe(memory.size);
    expect(bounded.out).toEqual(memory.out);
    expect(memory.out.some((t) => t.selections[0]!.answer.length > 0)).toBe(true);
  });
});

describe('a large library between selections', () => {
  it('recalls a skill by its new words after a re-import, and no longer by its old ones', async () => {
    Object.assign(sampledFrom, { skills: 0, sample: 1_000_000 });
    const root = path.join(dir, 'edits');
    writeSkill(
      root,
      'pot-scrub',
      skillMd('pot-scrub', 'Scrub a pot with steel wool', '# Scrub\n\nRinse after.\n'),
    );
    writeSkill(root, 'lamp-fix', skillMd('lamp-fix', 'Fix a desk lamp', '# Fix\n\nReplace the bulb.\n'));
    const db = openDb(path.join(dir, 'edits.db'));
    try {
      const deps = { db, clock, logger: { info: () => {}, warn: () => {} } };
      await importSource(deps, { path: root }, testJob());
      const names = (q: string) =>
        lexicalRecall(db, q, 5).map((h) =>
          db.prepare('SELECT name FROM skills WHERE id = ?').pluck().get(h.skillId),
        );
      expect(names('steel wool')).toEqual(['pot-scrub']);
      writeFileSync(
        path.join(root, 'pot-scrub', 'SKILL.md'),
        skillMd('pot-scrub', 'Polish a kettle with a cloth', '# Polish\n\nDry after.\n'),
      );
      await importSource(
        { ...deps, clock: () => new Date('2026-06-02T00:00:00Z') },
        { path: root },
        testJob(),
      );
      expect(names('polish the kettle')).toEqual(['pot-scrub']);
      expect(names('steel wool')).toEqual([]);
      expect(libraryIndex(db).size).toBe(2);
    } finally {
      db.close();
    }
  });
});
