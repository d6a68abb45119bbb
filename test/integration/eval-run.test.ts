// An evaluation run end to end: the sample library and sample tasks in a real SQLite file, the lexical recall and the
// lexical cross-encoder, stored results, the report, cancel and resume.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEvalReport, reportToMarkdown } from '../../src/core/eval/eval-report';
import { listEvalRuns } from '../../src/core/eval/eval-store';
import {
  importLabelFile,
  importLabelSet,
  saveLabelItem,
  getLabelItems,
  listLabelSets,
} from '../../src/core/eval/label-store';
import { runEval, type EvalDeps } from '../../src/core/eval/run-eval';
import { getRun } from '../../src/core/select/runs-store';
import { createLexicalCrossEncoder } from '../../src/core/models/lexical/lexical-cross-encoder';
import { lexicalRecall, lexicalRecallEngine } from '../../src/core/models/lexical/lexical-recall';
import { crossEncoderScoreProvider } from '../../src/core/select/score-provider';
import { importSource } from '../../src/core/skills/index';
import type { JobProgress } from '../../src/shared/jobs';
import { expectEvalMetricsFollowAnswers } from '../fixtures/eval-oracle';
import { expectTraceFollowsMethod } from '../fixtures/method-oracle';
import { repoRoot, tempLibrary, testJob, type TempLibrary } from '../fixtures/skills/library-fixture';

let lib: TempLibrary;
let deps: EvalDeps;
let setId: number;
const tasksText = readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8');
// Eight tasks keep the run short on a shared CPU; the bench runs the whole set.
const subset = tasksText.split('\n').filter(Boolean).slice(0, 8).join('\n');

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
  setId = importLabelSet(lib.db, { name: 'sample', text: subset }, lib.deps.clock()).set.id;
});
afterAll(() => lib.close());

const job = (controller = new AbortController()) => {
  const progress: JobProgress[] = [];
  const report = (p: JobProgress): void => void progress.push(p);
  return { signal: controller.signal, report, progress, controller };
};

describe('evaluation run', () => {
  it('evaluates every variant and k on every task and reports recall separately', async () => {
    const j = job();
    const report = await runEval(
      deps,
      { setId, variants: ['full', 'no-parse', 'no-graph', 'no-split', 'dense'], k: [1, 2] },
      j,
    );
    expect(report.status).toBe('done');
    expect(report.summary.map((s) => (s.k ? `${s.variant}@${s.k}` : s.variant))).toEqual([
      'full',
      'no-parse@1',
      'no-parse@2',
      'no-graph',
      'no-split',
      'dense@1',
      'dense@2',
    ]);
    expect(report.tasks).toHaveLength(8 * 7);
    const names = new Set(lib.db.prepare('SELECT name FROM skills').pluck().all() as string[]);
    for (const t of report.tasks) {
      for (const a of t.answer) expect(names.has(a)).toBe(true);
      expect(t.error).toBeNull();
      if (t.k) expect(t.answer.length).toBeLessThanOrEqual(t.k);
    }
    expectEvalMetricsFollowAnswers(report);
    // Each row is the answer of its stored selection trace; Recall@K is the share of gold among that trace's candidates.
    const items = new Map(getLabelItems(lib.db, setId).map((i) => [i.id, i]));
    for (const t of report.tasks) {
      const trace = getRun(lib.db, t.selectionRunId!).trace;
      expect([trace.task, trace.variant, trace.k]).toEqual([t.task, t.variant, t.k ?? null]);
      expect(trace.answer.map((a) => a.name)).toEqual(t.answer);
      expect(t.gold).toEqual(items.get(t.itemId)!.gold);
      const recalled = new Set(trace.candidates.map((c) => c.name));
      expect(t.recallAtK).toBeCloseTo(t.gold.filter((g) => recalled.has(g)).length / t.gold.length, 12);
      if (t.variant === 'full' || t.variant === 'no-graph' || t.variant === 'no-split')
        expectTraceFollowsMethod(trace);
      expect(t.crossEncoderPairs).toBe(trace.counts.pairs);
    }
    const perItem = [...items.keys()].map((id) => report.tasks.find((t) => t.itemId === id)!.recallAtK);
    expect(report.recallAtK).toBeCloseTo(perItem.reduce((a, b) => a + b, 0) / perItem.length, 12);
    expect(report.summary.find((s) => s.variant === 'dense')!.crossEncoderPairs).toBe(0);
    expect(j.progress.at(-1)).toMatchObject({ done: 8, total: 8, failed: 0 });
    // Pairs actually sent to the scorer (shared between variants) are fewer than the sum of what each variant needs.
    const sent = j.progress.at(-1)!.counters!.crossEncoderPairs!;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(report.summary.reduce((s, v) => s + v.crossEncoderPairs * v.tasks, 0));
    // Each stored task row carries its trace.
    const traced = lib.db
      .prepare("SELECT count(*) FROM selection_runs WHERE origin = 'eval'")
      .pluck()
      .get() as number;
    expect(traced).toBe(8 * 7);

    const md = reportToMarkdown(report);
    expect(md).toContain('| full |');
    expect(md).toContain(`Recall@30 of the recall stage`);
    expect(JSON.parse(JSON.stringify(report))).toEqual(getEvalReport(lib.db, report.runId));
  });

  it('a cancelled run resumes to the same results as an uninterrupted one', async () => {
    const variants = ['full', 'no-split'] as const;
    const whole = await runEval(deps, { setId, variants: [...variants] }, job());
    const j = job();
    let calls = 0;
    j.report = (p) => {
      j.progress.push(p);
      if (++calls === 3) j.controller.abort();
    };
    await expect(runEval(deps, { setId, variants: [...variants] }, j)).rejects.toThrow();
    const cancelled = listEvalRuns(lib.db)[0]!;
    expect(cancelled.status).toBe('cancelled');
    expect(getEvalReport(lib.db, cancelled.runId).tasks.length).toBe(3 * 2);
    const resumed = await runEval(deps, { setId, variants: [], resumeRunId: cancelled.runId }, job());
    expect(resumed.status).toBe('done');
    const strip = (r: typeof whole) =>
      r.tasks.map((t) => ({ id: t.itemId, v: t.variant, a: t.answer, f1: t.f1 }));
    expect(strip(resumed)).toEqual(strip(whole));
  });

  it('asks the LLM selector once per task for all k, and keeps names that are not candidates out', async () => {
    const prompts: string[] = [];
    const llm = async (prompt: string): Promise<string> => {
      prompts.push(prompt);
      const names = [...prompt.matchAll(/^name: (.+)$/gm)].map((m) => m[1]!);
      return `1. invented-skill\n2. ${names[0]}\n3. ${names[1]}\n`;
    };
    const report = await runEval(
      { ...deps, llm, llmModel: 'loopback-llm' },
      { setId, variants: ['llm'], k: [1, 2] },
      job(),
    );
    expect(prompts).toHaveLength(8);
    expect(report.engines.llm).toBe('loopback-llm');
    for (const t of report.tasks) {
      expect(t.answer).not.toContain('invented-skill');
      expect(t.answer).toHaveLength(t.k!);
      expect(t.llmCalls).toBe(1);
    }
  });

  it('imports the shipped sample tasks from their file, named after it', async () => {
    const result = await importLabelFile(
      lib.db,
      { path: path.join(repoRoot, 'resources/sample-tasks.jsonl') },
      lib.deps.clock(),
    );
    expect(result.set.name).toBe('sample-tasks');
    expect(result.added).toBe(tasksText.split('\n').filter(Boolean).length);
    expect(listLabelSets(lib.db).map((s) => s.name)).toContain('sample-tasks');
    await expect(
      importLabelFile(lib.db, { path: path.join(repoRoot, 'nope.jsonl') }, lib.deps.clock()),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a hand-edited label item survives a re-import of the same file', async () => {
    const first = getLabelItems(lib.db, setId)[0]!;
    saveLabelItem(lib.db, setId, { ...first, gold: ['household-locate-object'] }, lib.deps.clock());
    const again = importLabelSet(lib.db, { name: 'sample', text: subset }, lib.deps.clock());
    expect(again.keptEdited).toEqual([first.id]);
    expect(getLabelItems(lib.db, setId)[0]!.gold).toEqual(['household-locate-object']);
  });
});
