// A trace as plain text for the CLI: the answer first, then why (graph, split points, stages, rankings).
import { denseByWordsNote, denseRanksByWords } from '../../shared/dense-words';
import { noModelHint, weightsNote } from '../../shared/presets';
import { noTaskParseReason } from './graph';
import type { SelectionWhy } from '../../shared/why';
import type { SelectionTrace } from './trace-types';

const f = (x: number | null | undefined, digits = 3): string =>
  x === null || x === undefined ? '–' : x.toFixed(digits);

export function renderTrace(
  t: SelectionTrace,
  options: { verbose?: boolean; why?: SelectionWhy } = {},
): string {
  const name = (i: number): string => t.candidates[i]?.name ?? `#${i}`;
  const out: string[] = [];
  out.push(`Task: ${t.task}`);
  out.push(`Variant: ${variantLabel(t)}`);
  out.push(`Answer: ${t.answer.length === 0 ? '(none)' : t.answer.map((a) => a.name).join(', ')}`);
  if (t.abstention?.abstained)
    out.push(
      `${t.reason}; without it: ${t.abstention.wouldAnswer.join(', ')} (settings set selection.abstainBelow.${t.scorers?.relevance.tier === 'lexical' ? 'offline' : (t.preset ?? 'offline')}=null always answers)`,
    );
  if (options.why) out.push(...renderWhy(options.why));
  if (t.preset && t.scorers) {
    const uses = Object.entries(t.scorers).map(
      ([use, s]) =>
        `${use} ${s.tier} ${s.engine}${s.weights ? ` [${s.weights}]` : ''}${s.calibration ? ` (r = ${s.calibration.scale}·(cos − ${s.calibration.center}), ${s.calibration.source})` : ''}`,
    );
    out.push(`Preset: ${t.preset} · ${uses.join('; ')}`);
    if (t.preset !== 'offline' && Object.values(t.scorers).every((s) => s.tier === 'lexical'))
      out.push(
        `No model is set up for "${t.preset}", so it scored with the offline (lexical) engine: ${noModelHint}`,
      );
    const weights = weightsNote(t.scorers);
    if (weights) out.push(`Weights: ${weights}`);
  }
  if (t.reason) out.push(`Reason: ${t.reason}`);
  out.push(...noteLines(t.notes, options.verbose ?? false));
  if (t.parse) {
    out.push('', 'Parse:');
    t.parse.states.forEach((s, i) => {
      out.push(`  s${i}: ${s}`);
      if (i < t.parse!.subtasks.length) out.push(`    t${i}: ${t.parse!.subtasks[i]}`);
    });
  } else if (graphVariants.has(t.variant))
    out.push(
      '',
      'Parse: none (no states for the task, so no graph: give one with --parse FILE.json, or set an LLM endpoint with settings set llm.baseURL=... llm.model=...)',
    );
  else out.push('', 'Parse: none');
  const graph = t.candidates.some((c) => c.src !== null || c.dropped !== null || c.unplaced);
  out.push('', `Candidates (${t.candidates.length}):`);
  const shown = options.verbose ? t.candidates : t.candidates.slice(0, 15);
  for (const c of shown) {
    const edge = c.dropped
      ? t.n === 0
        ? 'not placed (the task has no parse)'
        : `dropped: ${c.dropped.reason}`
      : c.unplaced
        ? `edge not aligned (could not change a split)`
        : graph
          ? `edge ${c.src} -> ${c.tgt}`
          : '';
    out.push(
      `  ${c.index}. ${c.name}  recall ${f(c.recallScore)}  rho ${f(c.rho)}  w ${f(c.w)}  ${edge}${c.parseMissing ? '  (no parse)' : ''}`,
    );
  }
  if (shown.length < t.candidates.length)
    out.push(`  … ${t.candidates.length - shown.length} more (--verbose)`);
  if (t.nodes.length > 0) {
    out.push('', 'Nodes:');
    for (const n of t.nodes)
      out.push(`  ${n.i}: In ${f(n.in)}  Out ${f(n.out)}  Cross ${f(n.cross)}${n.split ? '  split' : ''}`);
    out.push(`Split points: ${t.splitPoints.length === 0 ? 'none' : t.splitPoints.join(', ')}`);
    const open = t.candidates.find((c) => c.unplaced)?.unplaced;
    if (open)
      out.push(
        `  (${t.counts.unplaced ?? 0} edge(s) not aligned: In/Out/Cross above leave out their w, ${f(open.openWeight)} in all, below the smallest split margin ${f(open.smallestMargin)})`,
      );
  }
  for (const s of t.stages) {
    out.push('', `Stage ${s.index + 1} (s${s.from} → s${s.to}): ${s.tau}`);
    const top = [...s.phi].filter((e) => e.phi !== null).sort((a, b) => b.phi! - a.phi!);
    for (const e of options.verbose ? top : top.slice(0, 5))
      out.push(
        `  ${e.candidate === s.winner ? '*' : ' '} ${name(e.candidate)}  fit ${f(e.fit)}  phi ${f(e.phi)}`,
      );
    const pruned = s.phi.filter((e) => e.prunedBound !== undefined).length;
    if (pruned > 0) out.push(`    (${pruned} not scored: their bound log σ(rho) cannot beat the winner)`);
  }
  if (t.ranking.length > 0) {
    out.push('', 'Ranking:');
    for (const [i, r] of t.ranking.slice(0, options.verbose ? undefined : 10).entries())
      out.push(`  ${i + 1}. ${name(r.candidate)}  ${f(r.score)}`);
  }
  if (t.llm) {
    if (t.llm.notCandidates.length > 0)
      out.push(`LLM named non-candidates (ignored): ${t.llm.notCandidates.join(', ')}`);
    if (t.llm.formatError) out.push(`LLM answer format error: ${t.llm.formatError}`);
  }
  out.push(
    '',
    `Models: recall ${t.models.recall ?? '–'}, cross-encoder ${t.models.crossEncoder ?? '–'}, LLM ${t.models.llm ?? '–'}; instructions ${Object.values(t.instructions).join(', ')}`,
    `Cost: ${t.counts.pairs} pairs scored by ${t.models.crossEncoder ?? 'the cross-encoder'} (${t.execution.pairsScored} scored now, ${t.counts.pairsPruned} pruned), ~${t.counts.documentTokens} tokens, ${t.counts.llmCalls} LLM call(s); ${f(t.execution.totalMs, 1)} ms`,
  );
  return out.join('\n');
}

/** "dense (k = 2), ranked by shared words: …": the k, and what dense ranked by when no embedding model is set up. */
export function variantLabel(t: Pick<SelectionTrace, 'variant' | 'k' | 'models'>): string {
  return `${t.variant}${t.k !== null ? ` (k = ${t.k})` : ''}${denseRanksByWords(t) ? `, ${denseByWordsNote}` : ''}`;
}

/** The why sentences: one per pick, then gold misses and dropped candidates; no "Why:" header over nothing. */
export function renderWhy(why: SelectionWhy): string[] {
  const out: string[] = [];
  for (const p of why.picks) out.push(`  ${p.gold ? '[gold] ' : ''}${p.sentence}`);
  if (why.gold) out.push(`Gold: ${why.gold.join(', ')}`);
  for (const m of why.goldMissed) out.push(`  missed gold: ${m.sentence}`);
  const byReason = new Map<string, SelectionWhy['dropped']>();
  for (const d of why.dropped) byReason.set(d.reason, [...(byReason.get(d.reason) ?? []), d]);
  for (const [reason, dropped] of byReason)
    if (reason === noTaskParseReason)
      out.push(
        `  ${dropped.length === 1 ? '1 candidate was' : `${dropped.length} candidates were`} not placed: ${reason}. ` +
          'Give the task its states with --parse FILE.json, or set an LLM endpoint (settings set llm.baseURL=... llm.model=...).',
      );
    else if (dropped.length <= 3) out.push(...dropped.map((d) => `  ${d.sentence}`));
    else out.push(`  ${dropped.length} candidates were dropped from the graph: ${reason}.`);
  for (const s of why.stages) {
    const closest = s.challengers[0];
    if (closest) out.push(`  ${closest.sentence}`);
  }
  const lines = out.length > 0 ? ['Why:', ...out] : [];
  if (why.weakAnswerNote) lines.push(`Note: ${why.weakAnswerNote}`);
  if (why.offlineNote) lines.push(`Note: ${why.offlineNote}`);
  return lines;
}

/** The variants that build the graph from the task's states; the others never use a parse. */
const graphVariants = new Set(['full', 'no-graph', 'no-split']);

const noParse = / has no parse: used precondition None and its description as completion$/;

/** One line per note, except that many candidates without a parse become one line unless verbose. */
function noteLines(notes: string[], verbose: boolean): string[] {
  const missing = notes.filter((n) => noParse.test(n));
  if (verbose || missing.length <= 3) return notes.map((n) => `Note: ${n}`);
  const names = missing.map((n) => n.replace(noParse, ''));
  return [
    ...notes.filter((n) => !noParse.test(n)).map((n) => `Note: ${n}`),
    `Note: ${missing.length} candidates have no parse (${names.slice(0, 3).join(', ')}, …; --verbose lists them): ` +
      'each used precondition None and its description as completion. Parse them (parse skills) or import ' +
      'reviewed states (states import FILE.jsonl).',
  ];
}
