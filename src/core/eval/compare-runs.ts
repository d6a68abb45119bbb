// Compares an evaluation run with an earlier run of the same label set: per-task answer changes, metric deltas, and
// the skills whose content or states changed between the two runs' libraries (with the state history in between), and
// on trigger query sets each skill's trigger figures before and after.
import {
  comparedMetrics,
  type EvalComparison,
  type MetricDelta,
  type SkillChange,
  type TaskChange,
} from '../../shared/api/evaluation';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import { getEvalReport, type EvalReport } from './eval-report';
import { getEvalRun } from './eval-store';
import { getRunLibrary, getRunSkills, type SkillSnapshot } from './library-snapshot';
import { triggerChanges } from './trigger-changes';

export type { EvalComparison };

const label = (v: { variant: string; k?: number }): string => (v.k ? `${v.variant}@${v.k}` : v.variant);

/** The last finished run of the same label set before `runId`. */
export function previousRunId(db: Db, runId: number): number | null {
  const run = getEvalRun(db, runId);
  const row = db
    .prepare(
      "SELECT id FROM eval_runs WHERE set_id = ? AND id < ? AND status = 'done' ORDER BY id DESC LIMIT 1",
    )
    .get(run.setId, runId) as { id: number } | undefined;
  return row?.id ?? null;
}

/** The last finished run of a label set, or null. */
export function lastRunOfSet(db: Db, setId: number): number | null {
  const row = db
    .prepare("SELECT id FROM eval_runs WHERE set_id = ? AND status = 'done' ORDER BY id DESC LIMIT 1")
    .get(setId) as { id: number } | undefined;
  return row?.id ?? null;
}

export function compareRuns(db: Db, runId: number, baseRunId?: number): EvalComparison {
  const baseId = baseRunId ?? previousRunId(db, runId);
  if (baseId === null)
    throw new CuratorError('NOT_FOUND', `Run ${runId} has no earlier finished run of the same label set`);
  if (baseId === runId) throw new CuratorError('INVALID_ARGUMENT', 'Compare a run with another run');
  const base = getEvalReport(db, baseId);
  const current = getEvalReport(db, runId);
  if (base.setId !== current.setId)
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Runs ${baseId} and ${runId} are on different label sets (${base.setName}, ${current.setName})`,
    );
  const baseLibrary = getRunLibrary(db, baseId);
  const currentLibrary = getRunLibrary(db, runId);
  const changedTasks = taskChanges(base, current);
  const editedSkills = skillChanges(db, baseId, runId, base, current, changedTasks);
  const triggers = triggerChanges(base, current);

  const setupChanges: string[] = [];
  if (!baseLibrary || !currentLibrary) setupChanges.push('library not recorded');
  else {
    if (baseLibrary.skillCount !== currentLibrary.skillCount)
      setupChanges.push(`skill count (${baseLibrary.skillCount} → ${currentLibrary.skillCount})`);
    if (baseLibrary.contentDigest !== currentLibrary.contentDigest) setupChanges.push('content');
    if (baseLibrary.statesDigest !== currentLibrary.statesDigest) setupChanges.push('states');
    const engines = changedValues(baseLibrary.engines, currentLibrary.engines);
    if (engines.length) setupChanges.push(`engines (${engines.join('; ')})`);
    const settings = changedValues(baseLibrary.settings, currentLibrary.settings);
    if (settings.length) setupChanges.push(`settings (${settings.join('; ')})`);
  }
  return {
    baseRunId: baseId,
    runId,
    setId: current.setId,
    setName: current.setName,
    base: { createdAt: base.createdAt, library: baseLibrary },
    current: { createdAt: current.createdAt, library: currentLibrary },
    setupChanges,
    metrics: metricDeltas(base, current),
    changedTasks,
    editedSkills,
    ...(triggers ? { triggers } : {}),
  };
}

function metricDeltas(base: EvalReport, current: EvalReport): MetricDelta[] {
  const before = new Map(base.summary.map((s) => [label(s), s]));
  const after = new Map(current.summary.map((s) => [label(s), s]));
  const labels = [...new Set([...after.keys(), ...before.keys()])];
  return labels.map((l) => {
    const b = before.get(l);
    const a = after.get(l);
    const pick = (s: typeof b) =>
      Object.fromEntries(
        comparedMetrics.filter((m) => s?.[m] !== undefined).map((m) => [m, s![m] as number]),
      );
    const bm = pick(b);
    const am = pick(a);
    const row = (a ?? b)!;
    return {
      variant: row.variant,
      ...(row.k ? { k: row.k } : {}),
      ...(!b ? { only: 'current' as const } : !a ? { only: 'base' as const } : {}),
      base: bm,
      current: am,
      delta: Object.fromEntries(
        comparedMetrics.filter((m) => m in bm && m in am).map((m) => [m, am[m]! - bm[m]!]),
      ),
    };
  });
}

function taskChanges(base: EvalReport, current: EvalReport): TaskChange[] {
  const before = new Map(base.tasks.map((t) => [`${t.itemId}\u0001${label(t)}`, t]));
  const out = new Map<string, TaskChange>();
  for (const t of current.tasks) {
    const b = before.get(`${t.itemId}\u0001${label(t)}`);
    if (!b || JSON.stringify(b.answer) === JSON.stringify(t.answer)) continue;
    const change = out.get(t.itemId) ?? { itemId: t.itemId, task: t.task, gold: t.gold, changes: [] };
    change.changes.push({
      variant: t.variant,
      ...(t.k ? { k: t.k } : {}),
      before: b.answer,
      after: t.answer,
      f1Before: b.f1,
      f1After: t.f1,
    });
    out.set(t.itemId, change);
  }
  return [...out.values()];
}

function skillChanges(
  db: Db,
  baseId: number,
  runId: number,
  base: EvalReport,
  current: EvalReport,
  changed: TaskChange[],
): SkillChange[] {
  const before = getRunSkills(db, baseId);
  const after = getRunSkills(db, runId);
  const found = new Map<string, { skillId: number; changes: SkillChange['changes'] }>();
  if (before.size > 0 && after.size > 0) {
    for (const key of new Set([...before.keys(), ...after.keys()])) {
      const b: SkillSnapshot | undefined = before.get(key);
      const a: SkillSnapshot | undefined = after.get(key);
      const kinds: SkillChange['changes'] = [];
      if (!b) kinds.push('added');
      else if (!a) kinds.push('removed');
      else {
        if (a.statesHash !== b.statesHash) kinds.push('states-edited');
        if (a.contentHash !== b.contentHash) kinds.push('content-changed');
      }
      if (kinds.length > 0) found.set(key, { skillId: (a ?? b)!.skillId, changes: kinds });
    }
  } else {
    // A run from before libraries were recorded: the state history between the two runs is all there is.
    const rows = db
      .prepare(
        `SELECT DISTINCT h.skill_id, s.name FROM state_history h JOIN skills s ON s.id = h.skill_id
         WHERE h.at > ? AND h.at <= ? AND h.action IN ('edit','revert','reparse','parse')`,
      )
      .all(base.createdAt, current.createdAt) as { skill_id: number; name: string }[];
    for (const r of rows) found.set(r.name, { skillId: r.skill_id, changes: ['states-edited'] });
  }
  const history = db.prepare(
    'SELECT action, before, after, at FROM state_history WHERE skill_id = ? AND at > ? AND at <= ? ORDER BY id',
  );
  const brief = (json: string | null) => {
    if (json === null) return null;
    const s = JSON.parse(json) as { precondition: string | null; completion: string | null };
    return { precondition: s.precondition, completion: s.completion };
  };
  return [...found.entries()]
    .map(([name, f]) => {
      const plain = name.replace(/ \(#\d+\)$/, '');
      return {
        name,
        skillId: f.skillId,
        changes: f.changes,
        history: (
          history.all(f.skillId, base.createdAt, current.createdAt) as {
            action: string;
            before: string | null;
            after: string;
            at: string;
          }[]
        ).map((h) => ({ action: h.action, at: h.at, before: brief(h.before), after: brief(h.after)! })),
        inChangedTasks: changed
          .filter(
            (t) =>
              t.gold.includes(plain) ||
              t.changes.some((c) => c.before.includes(plain) || c.after.includes(plain)),
          )
          .map((t) => t.itemId),
      };
    })
    .sort((a, b) => b.inChangedTasks.length - a.inChangedTasks.length || a.name.localeCompare(b.name));
}

/** "preset exact → offline" for each leaf that differs between two recorded objects, by its dotted path. */
function changedValues(base: unknown, current: unknown, at = ''): string[] {
  const isObject = (x: unknown): x is Record<string, unknown> =>
    typeof x === 'object' && x !== null && !Array.isArray(x);
  if (isObject(base) && isObject(current)) {
    const keys = [...new Set([...Object.keys(base), ...Object.keys(current)])].sort();
    return keys.flatMap((k) => changedValues(base[k], current[k], at ? `${at}.${k}` : k));
  }
  const text = (x: unknown) => (x === undefined ? 'unset' : typeof x === 'string' ? x : JSON.stringify(x));
  return JSON.stringify(base) === JSON.stringify(current) ? [] : [`${at} ${text(base)} → ${text(current)}`];
}
