// The "put a hot mug in the coffee machine" case of METHOD.md with a hand-made r table (see select-method.test.ts).
import type { SelectionInput } from '../../src/core/select/trace-types';
import { skill, type RTable } from './select-fixtures';

export const t = [
  'Find the mug.',
  'Heat the mug in the microwave.',
  'Put the hot mug in the coffee machine.',
];
export const s = [
  'The agent is in the kitchen and does not know where the mug is.',
  'The agent holds the mug.',
  'The agent holds a hot mug.',
  'The hot mug is in the coffee machine.',
];
export const P = {
  heat: 'The agent holds an object that must be heated.',
  put: 'The agent holds the object it must place.',
  clean: 'The agent holds a dirty object.',
};
export const E = {
  locate: 'The agent holds the object.',
  heat: 'The agent holds a heated object.',
  put: 'The object is inside the receptacle.',
  clean: 'The agent holds a clean object.',
};

export const mugInput: SelectionInput = {
  task: 'put a hot mug in the coffee machine',
  parse: { subtasks: t, states: s },
  candidates: [
    skill('locate-object', 0.9, { precondition: null, completion: E.locate }),
    skill('heat-object', 0.8, { precondition: P.heat, completion: E.heat }),
    skill('put-object', 0.7, { precondition: P.put, completion: E.put }),
    skill('clean-object', 0.6, { precondition: P.clean, completion: E.clean }),
  ],
};

export const mugTable: RTable = {
  'relevance|locate-object': 1,
  'relevance|heat-object': 2,
  'relevance|put-object': 1.5,
  'relevance|clean-object': -1,
  // src: argmax over s_0..s_2 of r(s_i, p_k)
  [`align|${s[0]}|${P.heat}`]: -2,
  [`align|${s[1]}|${P.heat}`]: 3,
  [`align|${s[2]}|${P.heat}`]: 1,
  [`align|${s[0]}|${P.put}`]: -3,
  [`align|${s[1]}|${P.put}`]: 2,
  [`align|${s[2]}|${P.put}`]: 2.5,
  [`align|${s[0]}|${P.clean}`]: -1,
  [`align|${s[1]}|${P.clean}`]: 1,
  [`align|${s[2]}|${P.clean}`]: 1, // tie with s_1: the smaller index wins
  // tgt: argmax over s_(src+1)..s_3 of r(s_j, e_k)
  [`align|${s[1]}|${E.locate}`]: 3,
  [`align|${s[2]}|${E.locate}`]: 1,
  [`align|${s[3]}|${E.locate}`]: -1,
  [`align|${s[2]}|${E.heat}`]: 4,
  [`align|${s[3]}|${E.heat}`]: 0,
  [`align|${s[2]}|${E.clean}`]: -1,
  [`align|${s[3]}|${E.clean}`]: -1, // tie: tgt = 2
  // put-object: src = 2, so its tgt range is {3} and needs no score.
};
export const names = ['locate-object', 'heat-object', 'put-object', 'clean-object'];
export const fits: Record<string, number[]> = {
  // r(tau_stage, c_k) for stages 0, 1, 2
  'locate-object': [3, -2, -1],
  'heat-object': [-1, 3, -2],
  'put-object': [-2, -1, 2],
  'clean-object': [-1, 0, -3],
};
for (const n of names) fits[n]!.forEach((r, stage) => (mugTable[`stage-fit|${t[stage]}|${n}`] = r));
