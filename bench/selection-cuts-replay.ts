// The exact cuts' settings replayed on recorded r values at no model cost: for each alignment round size and stage-fit
// round size, the pairs per use, the scorer calls, and the tokens the prefix path would compute (estimated: a query
// with two or more documents in one call runs its head once; chars / 4 per token, capped at the budgets). The trace
// must come from a run that scored a superset of what the settings need: exact@cuts-before (every edge aligned,
// stage-fit rounds of 8) covers every alignRound and every batchSize <= 8; a setting that needs an unrecorded pair
// says so. Answers must equal the recorded one.
// Run: npx tsx bench/selection-cuts-replay.ts TRACE.json [--align 0,2,4,8,16] [--batch 1,2,4,8] [--json]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ScorePair } from '../src/core/models/ports';
import { approxTokens } from '../src/core/select/documents';
import type { Instruction } from '../src/core/select/instructions';
import { recordedScores } from '../src/core/select/replay';
import { pairKey, type ScoreProvider } from '../src/core/select/scores';
import { selectSkills } from '../src/core/select/select';
import type { ScoreUse, SelectionTrace } from '../src/core/select/trace-types';
import { defaultSettings } from '../src/shared/settings';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    align: { type: 'string', default: '0,2,4,8,16' },
    batch: { type: 'string', default: '1,2,4,8' },
    json: { type: 'boolean', default: false },
  },
});

const settings = defaultSettings();
const budget: Record<ScoreUse, number> = {
  align: settings.selection.crossEncoderAlignMaxTokens,
  relevance: settings.selection.crossEncoderMaxTokens,
  'stage-fit': settings.selection.crossEncoderMaxTokens,
};
const templateTokens = 40;

/** Serves recorded r values and counts what the prefix path would compute per call. */
class RecordedScorer implements ScoreProvider {
  readonly id = 'recorded';
  calls = 0;
  computed: Record<ScoreUse, number> = { align: 0, relevance: 0, 'stage-fit': 0 };
  constructor(private readonly memo: ReturnType<typeof recordedScores>) {}
  async score(instruction: Instruction, pairs: ScorePair[]): Promise<number[]> {
    this.calls++;
    const byQuery = new Map<string, ScorePair[]>();
    for (const p of pairs) byQuery.set(p.query, [...(byQuery.get(p.query) ?? []), p]);
    for (const [query, docs] of byQuery) {
      const head = templateTokens + approxTokens(instruction.text + query);
      const rows = docs.map((d) =>
        Math.max(1, Math.min(budget[instruction.use] - head, approxTokens(d.document))),
      );
      this.computed[instruction.use] +=
        docs.length >= 2 ? head + rows.reduce((a, b) => a + b, 0) : rows.reduce((a, b) => a + head + b, 0);
    }
    return pairs.map((p) => {
      const known = this.memo.get(pairKey(instruction.version, p.query, p.document));
      if (!known) throw new Error('needs a pair the recorded run did not score');
      return known.r;
    });
  }
}

const trace = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as SelectionTrace;
const rows: Record<string, unknown>[] = [];
for (const alignRound of args.align!.split(',').map(Number))
  for (const batchSize of args.batch!.split(',').map(Number)) {
    const scorer = new RecordedScorer(recordedScores(trace));
    try {
      const out = await selectSkills(trace.input, scorer, { variant: trace.variant, alignRound, batchSize });
      const pairs: Record<string, number> = {};
      for (const s of out.scores) pairs[s.use] = (pairs[s.use] ?? 0) + 1;
      const computed = Object.values(scorer.computed).reduce((a, b) => a + b, 0);
      rows.push({
        alignRound,
        batchSize,
        pairs: out.counts.pairs,
        ...pairs,
        unplaced: out.counts.unplaced ?? 0,
        calls: scorer.calls,
        computedTokens: computed,
        computedByUse: scorer.computed,
        sameAnswer: JSON.stringify(out.answer) === JSON.stringify(trace.answer),
      });
    } catch (e) {
      rows.push({ alignRound, batchSize, error: (e as Error).message });
    }
  }
if (args.json) console.log(JSON.stringify(rows, null, 2));
else {
  console.log(
    `${positionals[0]}: ${trace.candidates.length} candidates, ${trace.n} states, recorded ${trace.scores.length} pairs`,
  );
  console.log(
    'align  batch  pairs  align  relev  fit  unplaced  calls  est. computed tokens (align/relev/fit)  same',
  );
  for (const r of rows)
    console.log(
      r.error
        ? `${String(r.alignRound).padStart(5)}  ${String(r.batchSize).padStart(5)}  ${r.error as string}`
        : `${String(r.alignRound).padStart(5)}  ${String(r.batchSize).padStart(5)}  ${String(r.pairs).padStart(5)}  ${String(r.align ?? 0).padStart(5)}  ${String(r.relevance ?? 0).padStart(5)}  ${String(r['stage-fit'] ?? 0).padStart(3)}  ${String(r.unplaced).padStart(8)}  ${String(r.calls).padStart(5)}  ${String(r.computedTokens).padStart(6)} (${Object.values(r.computedByUse as object).join('/')})  ${r.sameAnswer ? 'yes' : 'NO'}`,
    );
}
