// The selection on the sample library in a real SQLite file with the lexical engines: stored runs, skill states from
// the library, a replay of a stored run, and a trace read back from JSON.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLabelJsonl } from '../../src/core/eval/label-format';
import {
  createLexicalCrossEncoder,
  lexicalCrossEncoderId,
} from '../../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall, lexicalRecallEngine } from '../../src/core/models/lexical/lexical-recall';
import {
  crossEncoderScoreProvider,
  getRun,
  listRuns,
  parseTraceJson,
  renderTrace,
  replayRun,
  runSelection,
  saveRun,
  type SelectionDeps,
} from '../../src/core/select/index';
import { importSource } from '../../src/core/skills/index';
import { expectTraceFollowsMethod } from '../fixtures/method-oracle';
import { repoRoot, tempLibrary, testJob, type TempLibrary } from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let deps: SelectionDeps;
const mug = parseLabelJsonl(readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8')).find(
  (i) => i.id === 'hh-01',
)!;

beforeAll(async () => {
  lib = tempLibrary();
  await importSource(lib.deps, { path: path.join(repoRoot, 'resources/sample-library') }, testJob());
  deps = {
    db: lib.db,
    recall: (q, K) => lexicalRecall(lib.db, q, K).map((h) => ({ skillId: h.skillId, score: h.score })),
    recallModel: lexicalRecallEngine,
    scorer: crossEncoderScoreProvider(createLexicalCrossEncoder(lib.db)),
    clock: lib.deps.clock,
  };
});
afterAll(() => lib.close());

describe('selection on the sample library', () => {
  it('runs every variant on the same candidates, stores each trace, and scores shared pairs once', async () => {
    let scored = 0;
    const counting = {
      ...deps,
      scorer: {
        id: deps.scorer!.id,
        score: async (i: never, p: never[]) => ((scored += p.length), deps.scorer!.score(i, p)),
      },
    };
    const outcomes = await runSelection(counting, {
      task: mug.task,
      parse: mug.parse,
      variants: ['full', 'no-parse', 'no-graph', 'dense'],
      k: 2,
    });
    expect(outcomes.map((o) => o.trace.variant)).toEqual(['full', 'no-parse', 'no-graph', 'dense']);
    const full = outcomes[0]!.trace;
    expect(full.n).toBe(4);
    expectTraceFollowsMethod(full);
    expectTraceFollowsMethod(outcomes[2]!.trace);
    // Every variant ran on the same candidates, in recall order.
    for (const o of outcomes)
      expect(o.trace.candidates.map((c) => c.name)).toEqual(full.candidates.map((c) => c.name));
    const top2 = (score: (c: (typeof full.candidates)[number]) => number) =>
      [...full.candidates]
        .sort((a, b) => score(b) - score(a) || a.index - b.index)
        .slice(0, 2)
        .map((c) => c.name);
    expect(outcomes[1]!.trace.answer.map((a) => a.name)).toEqual(top2((c) => c.rho!));
    expect(outcomes[3]!.trace.answer.map((a) => a.name)).toEqual(top2((c) => c.recallScore));
    expect(full.models).toMatchObject({ recall: 'lexical:bm25', crossEncoder: lexicalCrossEncoderId });
    // no-parse reuses all rho values of full: it scores nothing new.
    expect(outcomes[1]!.trace.execution.pairsScored).toBe(0);
    expect(scored).toBe(outcomes.reduce((s, o) => s + o.trace.execution.pairsScored, 0));
    expect(full.notes.some((n) => n.includes('has no parse'))).toBe(true);
    const stored = getRun(lib.db, outcomes[0]!.runId!);
    expect(stored.trace).toEqual(JSON.parse(JSON.stringify(full)));
    // The run list shows each stored run with its own variant and answer, newest first.
    expect(listRuns(lib.db, 4).map((r) => [r.runId, r.variant, r.answer, r.task])).toEqual(
      [...outcomes]
        .reverse()
        .map((o) => [o.runId, o.trace.variant, o.trace.answer.map((a) => a.name), mug.task]),
    );
    expect(renderTrace(full)).toContain('Stage 1 (s0 → s');
    // The lab's list leaves out what an evaluation stored (a run per task and variant would bury the lab's own).
    const evalRun = saveRun(lib.db, full, 'eval', new Date());
    expect(listRuns(lib.db, 1)[0]!.runId).toBe(evalRun);
    expect(listRuns(lib.db, 4, { evaluations: false }).map((r) => r.runId)).toEqual(
      [...outcomes].reverse().map((o) => o.runId),
    );
  });

  it('uses parsed skill states from the library and reports the parse as present', async () => {
    const id = lib.db
      .prepare("SELECT id FROM skills WHERE name = 'household-heat-object-microwave'")
      .pluck()
      .get() as number;
    lib.db
      .prepare(
        `INSERT INTO skill_states (skill_id, precondition, completion, status, created_at, updated_at)
         VALUES (?, ?, ?, 'parsed', '2026-01-01', '2026-01-01')`,
      )
      .run(
        id,
        'The robot is holding an object that is at room temperature.',
        'The robot is holding the object and it is hot.',
      );
    const [o] = await runSelection(deps, { task: mug.task, parse: mug.parse, variants: ['full'] });
    const heat = o!.trace.candidates.find((c) => c.name === 'household-heat-object-microwave')!;
    expect(heat.parseMissing).toBe(false);
    expect(heat.precondition).toMatch(/room temperature/);
    expect(heat.srcScores).toHaveLength(3);
  });

  it('replays a stored run with an edit as a child run, and a trace read from JSON with no edit', async () => {
    const [o] = await runSelection(deps, { task: mug.task, parse: mug.parse, variants: ['full'] });
    const replayed = await replayRun(deps, { runId: o!.runId! }, [
      { kind: 'subtask', index: 1, text: 'Warm the mug up.' },
    ]);
    expect(getRun(lib.db, replayed.runId!).parentRunId).toBe(o!.runId);
    expect(replayed.trace.parse!.subtasks[1]).toBe('Warm the mug up.');
    expect(replayed.trace.execution.pairsScored).toBeLessThan(o!.trace.counts.pairs);
    const fromFile = parseTraceJson(JSON.stringify(o!.trace));
    const same = await replayRun({ ...deps, scorer: null }, { trace: fromFile }, [], { store: false });
    expect(same.trace.answer).toEqual(o!.trace.answer);
    expect(() => parseTraceJson('{"traceVersion": 1}')).toThrow(/not a selection trace/);
  });

  it('an empty library answers nothing with a reason', async () => {
    const empty = tempLibrary();
    try {
      const [o] = await runSelection(
        { ...deps, db: empty.db, recall: () => [] },
        { task: 'anything', variants: ['full'] },
      );
      expect(o!.trace.answer).toEqual([]);
      expect(o!.trace.reason).toBe('The library is empty');
    } finally {
      empty.close();
    }
  });
});
