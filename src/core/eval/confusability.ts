// Skill pairs the selection confuses on a run's labelled tasks, read from the stored traces: a stage's winner and
// runner-up within a small φ margin, ranked neighbours at the answer's edge within a small ρ margin, and stages of the
// same span that different variants gave to different skills. Sorted by how many tasks each pair affects.
import type { ConfusabilityReport, ConfusablePair } from '../../shared/api/evaluation';
import type { Db } from '../store/db';
import { getRun } from '../select/runs-store';
import type { SelectionTrace } from '../select/trace-types';
import { getEvalReport } from './eval-report';

export type { ConfusabilityReport, ConfusablePair };

export const defaultPhiMargin = 0.2;
export const defaultRhoMargin = 0.2;

interface Sighting {
  a: string;
  b: string;
  ids: [number | null, number | null];
  kind: ConfusablePair['kinds'][number];
  margin: number | null;
}

function stageSightings(trace: SelectionTrace, phiMargin: number): Sighting[] {
  const out: Sighting[] = [];
  for (const stage of trace.stages) {
    if (stage.winner === null) continue;
    const best = stage.phi.find((p) => p.candidate === stage.winner)?.phi;
    if (best === null || best === undefined) continue;
    const others = stage.phi
      .filter((p) => p.candidate !== stage.winner && p.phi !== null)
      .sort((x, y) => y.phi! - x.phi!);
    const runnerUp = others[0];
    if (!runnerUp || best - runnerUp.phi! > phiMargin) continue;
    const w = trace.candidates[stage.winner]!;
    const r = trace.candidates[runnerUp.candidate]!;
    out.push({
      a: w.name,
      b: r.name,
      ids: [w.skillId, r.skillId],
      kind: 'phi',
      margin: best - runnerUp.phi!,
    });
  }
  return out;
}

/** Ranked by ρ (no-parse): neighbours up to one past the answer's end. */
function rankSightings(trace: SelectionTrace, rhoMargin: number): Sighting[] {
  if (trace.variant !== 'no-parse' || trace.k === null) return [];
  const out: Sighting[] = [];
  for (let i = 0; i + 1 < trace.ranking.length && i < trace.k; i++) {
    const x = trace.ranking[i]!;
    const y = trace.ranking[i + 1]!;
    if (x.score - y.score > rhoMargin) continue;
    const cx = trace.candidates[x.candidate]!;
    const cy = trace.candidates[y.candidate]!;
    out.push({
      a: cx.name,
      b: cy.name,
      ids: [cx.skillId, cy.skillId],
      kind: 'rho',
      margin: x.score - y.score,
    });
  }
  return out;
}

/** Stages over the same span of the task that different variants gave to different skills. */
function swapSightings(traces: SelectionTrace[]): Sighting[] {
  const bySpan = new Map<string, Map<string, number | null>>();
  for (const t of traces)
    for (const s of t.stages) {
      if (s.winner === null) continue;
      const c = t.candidates[s.winner]!;
      const key = `${s.from}-${s.to}`;
      const winners = bySpan.get(key) ?? new Map<string, number | null>();
      winners.set(c.name, c.skillId);
      bySpan.set(key, winners);
    }
  const out: Sighting[] = [];
  for (const winners of bySpan.values()) {
    const names = [...winners.keys()];
    for (let i = 0; i < names.length; i++)
      for (let j = i + 1; j < names.length; j++)
        out.push({
          a: names[i]!,
          b: names[j]!,
          ids: [winners.get(names[i]!)!, winners.get(names[j]!)!],
          kind: 'swap',
          margin: null,
        });
  }
  return out;
}

export function confusability(
  db: Db,
  runId: number,
  options: { phiMargin?: number; rhoMargin?: number } = {},
): ConfusabilityReport {
  const phiMargin = options.phiMargin ?? defaultPhiMargin;
  const rhoMargin = options.rhoMargin ?? defaultRhoMargin;
  const report = getEvalReport(db, runId);
  const byItem = new Map<string, { gold: string[]; traces: SelectionTrace[] }>();
  for (const row of report.tasks) {
    if (row.selectionRunId === null) continue;
    let trace: SelectionTrace;
    try {
      trace = getRun(db, row.selectionRunId).trace;
    } catch {
      continue; // the trace was deleted with its selection run
    }
    const entry = byItem.get(row.itemId) ?? { gold: row.gold, traces: [] };
    entry.traces.push(trace);
    byItem.set(row.itemId, entry);
  }
  const pairs = new Map<string, ConfusablePair>();
  for (const [itemId, { gold, traces }] of byItem) {
    const sightings = [
      ...traces.flatMap((t) => stageSightings(t, phiMargin)),
      ...traces.flatMap((t) => rankSightings(t, rhoMargin)),
      ...swapSightings(traces),
    ];
    for (const s of sightings) {
      if (s.a === s.b) continue;
      const [first, second] = s.a < s.b ? [0, 1] : [1, 0];
      const names = [s.a, s.b];
      const key = `${names[first]}\u0001${names[second]}`;
      const pair = pairs.get(key) ?? {
        a: { name: names[first]!, skillId: s.ids[first]! },
        b: { name: names[second]!, skillId: s.ids[second]! },
        tasks: [],
        kinds: [],
        minMargin: null,
        goldInvolved: false,
      };
      if (!pair.tasks.includes(itemId)) pair.tasks.push(itemId);
      if (!pair.kinds.includes(s.kind)) pair.kinds.push(s.kind);
      if (s.margin !== null) pair.minMargin = Math.min(pair.minMargin ?? Infinity, Math.abs(s.margin));
      if (gold.includes(s.a) || gold.includes(s.b)) pair.goldInvolved = true;
      pairs.set(key, pair);
    }
  }
  return {
    runId,
    phiMargin,
    rhoMargin,
    pairs: [...pairs.values()].sort(
      (x, y) =>
        y.tasks.length - x.tasks.length ||
        (x.minMargin ?? Infinity) - (y.minMargin ?? Infinity) ||
        x.a.name.localeCompare(y.a.name),
    ),
  };
}
