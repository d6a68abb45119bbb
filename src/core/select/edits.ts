// What-if edits as users type them (CLI `replay --edit`, the API's TraceEdits) turned into the replay's TraceEdit list.
import { CuratorError } from '../../shared/errors';
import type { SelectionTrace, TraceEdit } from './trace-types';

/**
 * One edit in text form:
 *   state:I=TEXT            subtask:I=TEXT
 *   pre:SKILL=TEXT|None     post:SKILL=TEXT
 *   rho:SKILL=R             fit:SKILL@TAU=R        align:SKILL:I:pre|post=R
 */
export function parseEditArg(arg: string, trace: SelectionTrace): TraceEdit {
  const eq = arg.indexOf('=');
  if (eq < 0) throw new CuratorError('INVALID_ARGUMENT', `An edit needs "=": ${arg}`);
  const target = arg.slice(0, eq);
  const value = arg.slice(eq + 1);
  const colon = target.indexOf(':');
  const kind = colon < 0 ? target : target.slice(0, colon);
  const rest = colon < 0 ? '' : target.slice(colon + 1);
  const number = (s: string): number => {
    const r = Number(s);
    if (s.trim() === '' || !Number.isFinite(r))
      throw new CuratorError('INVALID_ARGUMENT', `Not a number: ${s}`);
    return r;
  };
  const index = (s: string): number => {
    if (!/^\d+$/.test(s)) throw new CuratorError('INVALID_ARGUMENT', `Not an index: ${s}`);
    return Number(s);
  };
  const known = (name: string): void => {
    if (!trace.input.candidates.some((x) => x.name === name))
      throw new CuratorError('INVALID_ARGUMENT', `${name} is not a candidate of this trace`);
  };
  switch (kind) {
    case 'state':
    case 'subtask':
      return { kind, index: index(rest), text: value };
    case 'pre':
      known(rest);
      return { kind: 'skill-states', name: rest, precondition: value === 'None' ? null : value };
    case 'post':
      known(rest);
      return { kind: 'skill-states', name: rest, completion: value };
    case 'rho':
      known(rest);
      return { kind: 'score', use: 'relevance', skill: rest, r: number(value) };
    case 'fit': {
      const at = rest.indexOf('@');
      if (at < 0) throw new CuratorError('INVALID_ARGUMENT', `fit:SKILL@TAU=R needs "@": ${arg}`);
      known(rest.slice(0, at));
      return {
        kind: 'score',
        use: 'stage-fit',
        skill: rest.slice(0, at),
        tau: rest.slice(at + 1),
        r: number(value),
      };
    }
    case 'align': {
      const m = /^(.+):(\d+):(pre|post)$/.exec(rest);
      if (!m) throw new CuratorError('INVALID_ARGUMENT', `align:SKILL:I:pre|post=R expected: ${arg}`);
      known(m[1]!);
      return {
        kind: 'score',
        use: 'align',
        skill: m[1]!,
        state: Number(m[2]),
        side: m[3] === 'pre' ? 'precondition' : 'completion',
        r: number(value),
      };
    }
    default:
      throw new CuratorError(
        'INVALID_ARGUMENT',
        `Unknown edit "${kind}": use state, subtask, pre, post, rho, fit or align`,
      );
  }
}

/** The API's grouped edits (skills by id, scores as `parseEditArg` keys) as a TraceEdit list, in a fixed order. */
export function editsFromApi(
  trace: SelectionTrace,
  edits: {
    states?: { index: number; text: string }[];
    subtasks?: { index: number; text: string }[];
    skills?: { skillId: number; precondition?: string | null; completion?: string }[];
    scores?: { key: string; r: number }[];
  },
): TraceEdit[] {
  const out: TraceEdit[] = [];
  for (const s of edits.states ?? []) out.push({ kind: 'state', index: s.index, text: s.text });
  for (const s of edits.subtasks ?? []) out.push({ kind: 'subtask', index: s.index, text: s.text });
  for (const s of edits.skills ?? []) {
    const c = trace.input.candidates.find((x) => x.skillId === s.skillId);
    if (!c) throw new CuratorError('INVALID_ARGUMENT', `Skill ${s.skillId} is not a candidate of this trace`);
    out.push({
      kind: 'skill-states',
      name: c.name,
      ...(s.precondition !== undefined ? { precondition: s.precondition } : {}),
      ...(s.completion !== undefined ? { completion: s.completion } : {}),
    });
  }
  for (const s of edits.scores ?? []) out.push(parseEditArg(`${s.key}=${s.r}`, trace));
  return out;
}
