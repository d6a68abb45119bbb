// Evaluation drives curation: every run records the library it ran on, a run compares with an earlier run of the same
// set (answer changes, metric deltas, the skills edited in between), the confusability report reads the stored traces,
// and the CSV export holds one row per task and variant. Real SQLite file, the offline (lexical) engines.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns, previousRunId } from '../../src/core/eval/compare-runs';
import { confusability } from '../../src/core/eval/confusability';
import { reportToCsv, type EvalReport } from '../../src/core/eval/eval-report';
import { importLabelSet } from '../../src/core/eval/label-store';
import { getRunLibrary } from '../../src/core/eval/library-snapshot';
import { runEval, type EvalDeps } from '../../src/core/eval/run-eval';
import { createLexicalCrossEncoder } from '../../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall, lexicalRecallEngine } from '../../src/core/models/lexical/lexical-recall';
import { getRun } from '../../src/core/select/runs-store';
import { crossEncoderScoreProvider } from '../../src/core/select/score-provider';
import { importSource } from '../../src/core/skills/index';
import { importStatesFile } from '../../src/core/states/import-states';
import { editStates } from '../../src/core/states/skill-states';
import { repoRoot, tempLibrary, testJob, type TempLibrary } from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let deps: EvalDeps;
let setId: number;
const subset = readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 6)
  .join('\n');
const variants = ['full', 'no-graph', 'no-parse'] as const;
const job = () => ({ signal: new AbortController().signal, report: () => {} });
const skillId = (name: string) =>
  lib.db.prepare('SELECT id FROM skills WHERE name = ?').pluck().get(name) as number;
const label = (t: { variant: string; k?: number }) => (t.k ? `${t.variant}@${t.k}` : t.variant);

let first: EvalReport;
let second: EvalReport;
const edited = ['household-make-coffee', 'household-heat-object-microwave'];

beforeAll(async () => {
  lib = tempLibrary();
  await importSource(lib.deps, { path: path.join(repoRoot, 'resources/sample-library') }, testJob());
  await importStatesFile(lib.db, lib.deps.clock, {
    path: path.join(repoRoot, 'resources/sample-states.jsonl'),
  });
  deps = {
    db: lib.db,
    recall: (q, K) => lexicalRecall(lib.db, q, K).map((h) => ({ skillId: h.skillId, score: h.score })),
    recallModel: lexicalRecallEngine,
    scorer: crossEncoderScoreProvider(createLexicalCrossEncoder(lib.db)),
    preset: 'offline',
    clock: lib.deps.clock,
  };
  setId = importLabelSet(lib.db, { name: 'sample', text: subset }, lib.deps.clock()).set.id;
  first = await runEval(deps, { setId, variants: [...variants], k: [1], settings: { recallK: 30 } }, job());
  // A curator's batch of edits: two skills' states narrowed to the end of a task, so their edges no longer span it.
  editStates(lib.db, lib.deps.clock, skillId(edited[0]!), {
    precondition: 'The hot mug is in the coffee machine.',
    completion: 'The mug is full of coffee and the coffee machine is off.',
  });
  editStates(lib.db, lib.deps.clock, skillId(edited[1]!), {
    precondition: 'The hot pan is on the dining table.',
    completion: 'The pan on the dining table is hot and the microwave is off.',
  });
  second = await runEval(deps, { setId, variants: [...variants], k: [1], settings: { recallK: 30 } }, job());
});
afterAll(() => lib.close());

describe('evaluation runs compared', () => {
  it('records the library each run ran on: counts, digests, engines and settings', () => {
    const a = getRunLibrary(lib.db, first.runId)!;
    const b = getRunLibrary(lib.db, second.runId)!;
    const skills = lib.db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
    expect(a.skillCount).toBe(skills);
    expect(b.skillCount).toBe(skills);
    expect(a.contentDigest).toBe(b.contentDigest);
    expect(a.statesDigest).not.toBe(b.statesDigest);
    expect(a.engines).toEqual({
      preset: 'offline',
      recall: lexicalRecallEngine,
      scorer: deps.scorer!.id,
      llm: null,
    });
    expect(a.settings).toEqual({ recallK: 30 });
    expect(previousRunId(lib.db, second.runId)).toBe(first.runId);
    expect(previousRunId(lib.db, first.runId)).toBeNull();
  });

  it('lists exactly the edited skills, the changed answers and the metric deltas', () => {
    const c = compareRuns(lib.db, second.runId);
    expect(c.baseRunId).toBe(first.runId);
    expect(c.setupChanges).toEqual(['states']);
    expect(c.editedSkills.map((s) => s.name).sort()).toEqual([...edited].sort());
    for (const s of c.editedSkills) {
      expect(s.changes).toEqual(['states-edited']);
      expect(s.history.map((h) => h.action)).toEqual(['edit']);
    }
    expect(c.editedSkills.find((s) => s.name === edited[1])!.history[0]!.after.completion).toBe(
      'The pan on the dining table is hot and the microwave is off.',
    );

    // Every task/variant whose answer differs between the two reports is listed, with both answers; no other.
    const before = new Map(first.tasks.map((t) => [`${t.itemId} ${label(t)}`, t]));
    const expected = second.tasks
      .filter(
        (t) => JSON.stringify(before.get(`${t.itemId} ${label(t)}`)!.answer) !== JSON.stringify(t.answer),
      )
      .map((t) => ({
        key: `${t.itemId} ${label(t)}`,
        before: before.get(`${t.itemId} ${label(t)}`)!.answer,
        after: t.answer,
      }));
    expect(expected.length).toBeGreaterThan(0);
    const listed = c.changedTasks.flatMap((t) =>
      t.changes.map((ch) => ({ key: `${t.itemId} ${label(ch)}`, before: ch.before, after: ch.after })),
    );
    expect(listed).toEqual(expected);
    // The edited skills took part in the changed tasks.
    expect(c.editedSkills.some((s) => s.inChangedTasks.length > 0)).toBe(true);

    for (const m of c.metrics) {
      const a = first.summary.find((s) => label(s) === label(m))!;
      const b = second.summary.find((s) => label(s) === label(m))!;
      expect(m.delta.f1).toBeCloseTo(b.f1 - a.f1, 12);
      expect(m.delta.precision).toBeCloseTo(b.precision - a.precision, 12);
      expect(m.delta.meanAnswerSize).toBeCloseTo(b.meanAnswerSize - a.meanAnswerSize, 12);
    }
  });

  it('runs from before libraries were recorded fall back to the state history between them', () => {
    const copy = (sql: string) => lib.db.prepare(sql).run(first.runId, second.runId);
    lib.db.exec('SAVEPOINT legacy');
    try {
      copy('DELETE FROM eval_run_skills WHERE run_id IN (?, ?)');
      copy('DELETE FROM eval_run_library WHERE run_id IN (?, ?)');
      const c = compareRuns(lib.db, second.runId, first.runId);
      expect(c.setupChanges).toEqual(['library not recorded']);
      expect(c.editedSkills.map((s) => s.name).sort()).toEqual([...edited].sort());
      expect(c.changedTasks.length).toBeGreaterThan(0);
    } finally {
      lib.db.exec('ROLLBACK TO legacy; RELEASE legacy');
    }
  });

  it('a run compared with itself or with another set is refused, the first run has nothing to compare with', async () => {
    expect(() => compareRuns(lib.db, first.runId)).toThrow(/no earlier finished run/);
    expect(() => compareRuns(lib.db, first.runId, first.runId)).toThrow(/another run/);
    const other = importLabelSet(lib.db, { name: 'other', text: subset.split('\n')[0]! }, lib.deps.clock());
    const third = await runEval(deps, { setId: other.set.id, variants: ['dense'], k: [1] }, job());
    expect(() => compareRuns(lib.db, third.runId, first.runId)).toThrow(/different label sets/);
  });

  it('an unchanged library re-run lists no edited skill and no changed answer', async () => {
    const again = await runEval(
      deps,
      { setId, variants: [...variants], k: [1], settings: { recallK: 30 } },
      job(),
    );
    const c = compareRuns(lib.db, again.runId);
    expect(c.baseRunId).toBe(second.runId);
    expect(c.setupChanges).toEqual([]);
    expect(c.editedSkills).toEqual([]);
    expect(c.changedTasks).toEqual([]);
    for (const m of c.metrics) expect(m.delta.f1).toBe(0);
  });

  it('names what changed in the engines and the settings, with the values before and after', async () => {
    const other = await runEval(
      { ...deps, preset: 'exact' },
      { setId, variants: [...variants], k: [1], settings: { recallK: 20 } },
      job(),
    );
    const c = compareRuns(lib.db, other.runId);
    expect(c.setupChanges).toEqual(['engines (preset offline → exact)', 'settings (recallK 30 → 20)']);
  });

  it('confusable pairs come from the traces and are sorted by how many tasks they affect', () => {
    const r = confusability(lib.db, first.runId, { phiMargin: 1, rhoMargin: 1 });
    expect(r.pairs.length).toBeGreaterThan(0);
    for (let i = 1; i < r.pairs.length; i++)
      expect(r.pairs[i - 1]!.tasks.length).toBeGreaterThanOrEqual(r.pairs[i]!.tasks.length);
    // Each φ pair is a stage's winner and runner-up within the margin in one of the run's traces.
    const traces = first.tasks.map((t) => ({
      itemId: t.itemId,
      trace: getRun(lib.db, t.selectionRunId!).trace,
    }));
    for (const p of r.pairs.filter((x) => x.kinds.includes('phi'))) {
      const seen = traces.some(
        ({ itemId, trace }) =>
          p.tasks.includes(itemId) &&
          trace.stages.some((s) => {
            if (s.winner === null) return false;
            const ranked = s.phi.filter((e) => e.phi !== null).sort((x, y) => y.phi! - x.phi!);
            const names = ranked
              .slice(0, 2)
              .map((e) => trace.candidates[e.candidate]!.name)
              .sort();
            return (
              ranked.length > 1 &&
              ranked[0]!.phi! - ranked[1]!.phi! <= 1 &&
              names.join() === [p.a.name, p.b.name].sort().join()
            );
          }),
      );
      expect(seen).toBe(true);
    }
    // A tighter margin keeps a subset of the pairs.
    const tight = confusability(lib.db, first.runId, { phiMargin: 0.01, rhoMargin: 0.01 });
    const loose = new Set(r.pairs.map((p) => `${p.a.name}|${p.b.name}`));
    for (const p of tight.pairs) expect(loose.has(`${p.a.name}|${p.b.name}`)).toBe(true);
  });

  it('exports one CSV row per task and variant, quoting what needs it', () => {
    const csv = reportToCsv(second);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^item,task,variant,k,gold,answer,precision/);
    expect(lines).toHaveLength(second.tasks.length + 1);
    const t = second.tasks[0]!;
    expect(
      lines[1]!.startsWith(`${t.itemId},${t.task.includes(',') ? `"${t.task}"` : t.task},${t.variant},`),
    ).toBe(true);
  });
});

describe('a running evaluation', () => {
  it('lets a cancel arrive while it runs on the offline engines', async () => {
    const controller = new AbortController();
    // A timer, like a cancel request arriving over HTTP, needs the event loop between tasks.
    setTimeout(() => controller.abort(), 0);
    await expect(
      runEval(
        deps,
        { setId, variants: ['full', 'no-split'] },
        { signal: controller.signal, report: () => {} },
      ),
    ).rejects.toThrow();
    const run = lib.db.prepare('SELECT id, status FROM eval_runs ORDER BY id DESC LIMIT 1').get() as {
      id: number;
      status: string;
    };
    expect(run.status).toBe('cancelled');
    const done = lib.db.prepare('SELECT count(DISTINCT item_id) FROM eval_results WHERE run_id = ?').pluck();
    expect(done.get(run.id) as number).toBeLessThan(6);
  });
});
