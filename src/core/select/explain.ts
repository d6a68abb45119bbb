// The "why" of a selection in sentences, built from its trace only: for each picked skill where its edge starts and
// ends, which stage it won and by how much over the runner-up; each dropped candidate's reason; where each missed gold
// skill was lost; and what each contender would need to win a stage (stage-challengers.ts).
import type { DroppedWhy, GoldMissWhy, PickWhy, SelectionWhy, StageWin } from '../../shared/why';
import { num, stageChallengers } from './stage-challengers';
import { logSigmoid } from './scores';
import type { CandidateTrace, SelectionTrace, StageTrace } from './trace-types';

const stageName = (s: StageTrace, n: number): string =>
  `stage ${s.index + 1} (s${s.from} → s${s.to}${s.from === 0 && s.to === n - 1 ? ', the whole task' : ''})`;

/** "its precondition matches s1, it completes s2". */
export function edgeClause(c: CandidateTrace): string {
  if (c.unplaced) return openEdgeClause(c.unplaced);
  if (c.src === null || c.tgt === null) return '';
  const start =
    c.precondition === null
      ? `it needs nothing (precondition None), so it starts at s0`
      : c.srcScores.length > 1
        ? `its precondition matches s${c.src} (r ${num(c.srcScores[c.src]!)})`
        : `its precondition can only start at s${c.src}`;
  const r = c.tgtScores[c.tgt];
  const end =
    r !== null && r !== undefined
      ? `it completes s${c.tgt} (r ${num(r)})`
      : `it completes s${c.tgt} (the only state after s${c.src})`;
  return `${start}, ${end}`;
}

/** Why an edge has no src/tgt: the alignment cut (METHOD-notes, "Exact cuts"). */
export function openEdgeClause(open: NonNullable<CandidateTrace['unplaced']>): string {
  return `its edge was not aligned: the skills left unaligned weigh ${num(open.openWeight)} in w together, less than the smallest split margin ${num(open.smallestMargin)} (|min(In, Out) − Cross| at an inner node), so wherever it starts and ends the stages are the same`;
}

/** The stage's best rival of `winner`: the largest scored φ, else the pruned entry with the largest bound. */
function stageWin(trace: SelectionTrace, stage: StageTrace): StageWin | null {
  if (stage.winner === null) return null;
  const phi = stage.phi.find((e) => e.candidate === stage.winner)?.phi;
  if (phi === null || phi === undefined) return null;
  const others = stage.phi.filter((e) => e.candidate !== stage.winner);
  const scored = others
    .filter((e) => e.phi !== null)
    .sort((a, b) => b.phi! - a.phi! || a.candidate - b.candidate)[0];
  const pruned = others
    .filter((e) => e.prunedBound !== undefined)
    .sort((a, b) => b.prunedBound! - a.prunedBound!)[0];
  const rival = scored ?? pruned;
  if (!rival) return { stage: stage.index, phi, runnerUp: null, margin: null };
  const rivalPhi = rival.phi ?? rival.prunedBound!;
  return {
    stage: stage.index,
    phi,
    runnerUp: { candidate: rival.candidate, name: trace.candidates[rival.candidate]!.name, phi: rival.phi },
    margin: phi - rivalPhi,
  };
}

function winClause(trace: SelectionTrace, win: StageWin): string {
  const stage = trace.stages[win.stage]!;
  const head = `won ${stageName(stage, trace.n)} with φ ${num(win.phi)}`;
  if (!win.runnerUp) return `${head} as its only contender`;
  if (win.runnerUp.phi === null)
    return `${head}; no rival could reach it (the closest, ${win.runnerUp.name}, has the bound log σ(ρ) ${num(win.phi - win.margin!)}: at least ${num(win.margin!)} short)`;
  return `${head}, beating ${win.runnerUp.name} by ${num(win.margin!)} in φ`;
}

function rankedClause(trace: SelectionTrace, candidate: number, rank: number): string {
  const entry = trace.ranking.find((r) => r.candidate === candidate);
  const next = trace.ranking[rank];
  const name = (i: number): string => trace.candidates[i]!.name;
  if (trace.variant === 'llm')
    return `the LLM ranked it #${rank}${next ? `, before ${name(next.candidate)}` : ''}`;
  const what = trace.variant === 'dense' ? 'recall score' : 'ρ';
  return `ranked #${rank} by ${what} ${num(entry?.score ?? NaN)}${next ? `, ahead of ${name(next.candidate)} by ${num((entry?.score ?? 0) - next.score)}` : ''}`;
}

function largestRhoClause(trace: SelectionTrace, candidate: number): string {
  const c = trace.candidates[candidate]!;
  const next = trace.candidates
    .filter((x) => x.index !== candidate && x.rho !== null)
    .sort((a, b) => b.rho! - a.rho!)[0];
  return `picked by the edge-case rule (${trace.reason ?? 'no stages'}): its ρ ${num(c.rho ?? NaN)} is the largest${next ? `, ahead of ${next.name} by ${num(c.rho! - next.rho!)}` : ''}`;
}

function pickSentence(trace: SelectionTrace, pick: PickWhy, rank: number | undefined): string {
  const c = trace.candidates[pick.candidate]!;
  const parts: string[] = [];
  const edge = edgeClause(c);
  if (edge) parts.push(edge);
  if (pick.stages.length > 0) parts.push(pick.stages.map((w) => winClause(trace, w)).join('; it also '));
  else if (rank !== undefined) parts.push(rankedClause(trace, pick.candidate, rank));
  else parts.push(largestRhoClause(trace, pick.candidate));
  const text = parts.join('; it ');
  return `${pick.name}: ${text}.`;
}

/** "; its ρ 3.04 is #2 of 30, and only the largest is answered": where relevance alone left a skill. */
function rhoRank(trace: SelectionTrace, c: CandidateTrace): string {
  if (c.rho === null) return '';
  const scored = trace.candidates.filter((x) => x.rho !== null);
  const rank = 1 + scored.filter((x) => x.rho! > c.rho! || (x.rho === c.rho && x.index < c.index)).length;
  return `; its ρ ${num(c.rho)} is #${rank} of ${scored.length}, and only the largest is answered`;
}

function goldMiss(trace: SelectionTrace, name: string): GoldMissWhy {
  const c = trace.candidates.find((x) => x.name === name);
  if (!c)
    return {
      name,
      where: 'not-recalled',
      sentence: `${name} was not recalled: it is not among the ${trace.candidates.length} candidates.`,
    };
  if (c.dropped && trace.n === 0)
    return {
      name,
      where: 'no-edge',
      sentence: `${name} was not placed: the task has no parse, so only relevance ranks the skills${rhoRank(trace, c)}.`,
    };
  if (c.dropped) return { name, where: 'no-edge', sentence: `${name} has no edge: ${c.dropped.reason}.` };
  if (trace.ranking.length > 0 || trace.llm) {
    const at = trace.ranking.findIndex((r) => r.candidate === c.index);
    return {
      name,
      where: 'below-k',
      sentence:
        at < 0
          ? `${name} was not ranked${trace.variant === 'llm' ? ' by the LLM' : ''}.`
          : `${name} was ranked #${at + 1}, below the top k = ${trace.k ?? trace.answer.length}.`,
    };
  }
  // Every candidate contends for every stage: name the stage it came closest to winning, and the stage its own edge
  // lies in when that is another (the graph draws it there, so that is where a reader looks first).
  const lostBy = (st: StageTrace): number | null => {
    const e = st.phi.find((x) => x.candidate === c.index);
    const best = st.phi.find((x) => x.candidate === st.winner)?.phi;
    if (!e || best === null || best === undefined) return null;
    const own = e.phi ?? e.prunedBound ?? (c.rho !== null ? logSigmoid(c.rho) : null);
    return own === null ? null : best - own;
  };
  let closest: { stage: StageTrace; delta: number } | null = null;
  for (const st of trace.stages) {
    const delta = lostBy(st);
    if (delta !== null && (!closest || delta < closest.delta)) closest = { stage: st, delta };
  }
  if (!closest)
    return {
      name,
      where: 'not-picked',
      sentence: `${name} was not picked: ${trace.reason ?? 'it contended for no stage'}.`,
    };
  const winnerOf = (st: StageTrace) => trace.candidates[st.winner!]!.name;
  const by = (st: StageTrace, delta: number) =>
    `by ${st.phi.find((x) => x.candidate === c.index)?.phi === null ? 'at least ' : ''}${num(delta)} in φ`;
  const winner = winnerOf(closest.stage);
  const home =
    c.src !== null && c.tgt !== null
      ? trace.stages.find((st) => st.from <= c.src! && c.tgt! <= st.to && st !== closest.stage)
      : undefined;
  const homeDelta = home ? lostBy(home) : null;
  const where =
    home && homeDelta !== null
      ? `, its closest; in ${stageName(home, trace.n)}, where its edge lies, it lost to ${winnerOf(home)} ${by(home, homeDelta)}`
      : '';
  return {
    name,
    where: 'lost-stage',
    stage: closest.stage.index,
    winner,
    deltaPhi: closest.delta,
    sentence: `${name} lost ${stageName(closest.stage, trace.n)} to ${winner} ${by(closest.stage, closest.delta)}${where}.`,
  };
}

function offlineNote(trace: SelectionTrace): string | null {
  const lexical =
    Object.values(trace.scorers ?? {}).some((s) => s.tier === 'lexical') ||
    (trace.models.crossEncoder?.startsWith('lexical') ?? false);
  if (!lexical) return null;
  return 'The offline (lexical) engine produced these scores: r counts shared words, so a skill that says the same thing in other words scores low, and margins are small. Adding an embedder (preset fast) or a cross-encoder (preset exact) scores meaning instead of wording.';
}

/** Every skill answered scored ρ < 0: the scorer finds each more likely irrelevant than relevant to the task. */
function weakAnswerNote(trace: SelectionTrace): string | null {
  const rhos = trace.answer.map((a) => trace.candidates[a.candidate]?.rho ?? null);
  if (rhos.length === 0 || rhos.some((r) => r === null || r >= 0)) return null;
  const largest = num(Math.max(...(rhos as number[])));
  return rhos.length === 1
    ? `The skill answered has ρ below 0 (${largest}): the scorer finds it more likely irrelevant to the task than relevant, so the library may hold no skill for it.`
    : `Every skill in this answer has ρ below 0 (the largest ${largest}): the scorer finds each more likely irrelevant to the task than relevant, so the library may hold no skill for it.`;
}

/** The why of a trace; `gold` marks the labelled task's gold skills and explains the ones the answer misses. */
export function explainSelection(trace: SelectionTrace, gold: readonly string[] | null = null): SelectionWhy {
  const goldSet = new Set(gold ?? []);
  const picks = trace.answer.map((a): PickWhy => {
    const c = trace.candidates[a.candidate]!;
    const stages = a.stages
      .map((i) => trace.stages[i])
      .filter((s): s is StageTrace => s !== undefined)
      .map((s) => stageWin(trace, s))
      .filter((w): w is StageWin => w !== null);
    const pick: PickWhy = {
      candidate: a.candidate,
      name: a.name,
      skillId: a.skillId,
      ...(gold ? { gold: goldSet.has(a.name) } : {}),
      edge: c.src !== null && c.tgt !== null ? { src: c.src, tgt: c.tgt } : null,
      stages,
      sentence: '',
    };
    pick.sentence = pickSentence(trace, pick, a.rank);
    return pick;
  });
  const dropped = trace.candidates
    .filter((c) => c.dropped !== null)
    .map((c): DroppedWhy => ({
      candidate: c.index,
      name: c.name,
      reason: c.dropped!.reason,
      sentence:
        trace.n === 0
          ? `${c.name} was not placed: ${c.dropped!.reason}.`
          : `${c.name} was dropped from the graph: ${c.dropped!.reason}.`,
    }));
  const answered = new Set(trace.answer.map((a) => a.name));
  return {
    picks,
    dropped,
    gold: gold ? [...gold] : null,
    goldMissed: (gold ?? []).filter((g) => !answered.has(g)).map((g) => goldMiss(trace, g)),
    stages: stageChallengers(trace),
    offlineNote: offlineNote(trace),
    weakAnswerNote: weakAnswerNote(trace),
  };
}
