// The strict answer formats of METHOD.md ("Parsing prompts"): accepted whole, or rejected with a reason.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  formatTaskDecomposition,
  parseSkillAnswer,
  parseTaskAnswer,
  validateTaskDecomposition,
} from '../../src/core/llm/answer-parsers';

describe('skill answers', () => {
  it('reads the two lines', () => {
    const r = parseSkillAnswer(
      'Precondition_State: A CSV file of survey answers exists.\nCompletion_State: The answers are cleaned and saved.',
    );
    expect(r).toEqual({
      ok: true,
      value: {
        precondition: 'A CSV file of survey answers exists.',
        completion: 'The answers are cleaned and saved.',
      },
    });
  });

  it('turns a None precondition into null, with or without a full stop', () => {
    for (const none of ['None', 'None.']) {
      const r = parseSkillAnswer(`Precondition_State: ${none}\nCompletion_State: A slide deck exists.`);
      expect(r).toEqual({ ok: true, value: { precondition: null, completion: 'A slide deck exists.' } });
    }
  });

  it('tolerates CRLF, surrounding whitespace, blank lines and a leading think block', () => {
    const r = parseSkillAnswer(
      '<think>\nthe skill needs a repo\n</think>\n\n  Precondition_State:   A git repository is checked out. \r\n\r\nCompletion_State: Tests pass.\r\n\n',
    );
    expect(r).toEqual({
      ok: true,
      value: { precondition: 'A git repository is checked out.', completion: 'Tests pass.' },
    });
  });

  it.each([
    ['empty', '', /empty/],
    ['whitespace only', ' \n \n', /empty/],
    [
      'prose before',
      'Sure! Here you go:\nPrecondition_State: None\nCompletion_State: Done.',
      /exactly two lines/,
    ],
    [
      'prose after',
      'Precondition_State: None\nCompletion_State: Done.\nLet me know if you need more.',
      /exactly two lines/,
    ],
    ['code fence', '```\nPrecondition_State: None\nCompletion_State: Done.\n```', /exactly two lines/],
    ['markdown bold', '**Precondition_State:** None\n**Completion_State:** Done.', /Line 1/],
    ['swapped order', 'Completion_State: Done.\nPrecondition_State: None', /Line 1/],
    ['missing completion', 'Precondition_State: None', /exactly two lines/],
    ['empty completion', 'Precondition_State: None\nCompletion_State:   ', /completion state is empty/],
    ['empty precondition', 'Precondition_State:\nCompletion_State: Done.', /precondition is empty/],
    ['None completion', 'Precondition_State: A file exists.\nCompletion_State: None', /None/],
    ['lower-case labels', 'precondition_state: None\ncompletion_state: Done.', /Line 1/],
    ['JSON', '{"Precondition_State": null, "Completion_State": "Done."}', /exactly two lines/],
  ])('rejects %s', (_label, raw, reason) => {
    const r = parseSkillAnswer(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(reason);
  });
});

describe('task answers', () => {
  const good = [
    'Subtask 1: Collect the quarterly sales figures.',
    'Subtask 2: Chart the figures by region.',
    'State 1: Only the request exists.',
    'State 2: The sales figures are collected.',
    'State 3: A chart of sales by region exists.',
  ].join('\n');

  it('reads sub-tasks then states, states = sub-tasks + 1', () => {
    const r = parseTaskAnswer(good);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.subtasks).toEqual([
      'Collect the quarterly sales figures.',
      'Chart the figures by region.',
    ]);
    expect(r.value.states).toHaveLength(r.value.subtasks.length + 1);
    expect(r.value.states[0]).toBe('Only the request exists.');
    expect(r.value.states[2]).toBe('A chart of sales by region exists.');
  });

  it('round-trips through its own text format', () => {
    const r = parseTaskAnswer(good);
    if (!r.ok) throw new Error(r.error);
    expect(parseTaskAnswer(formatTaskDecomposition(r.value))).toEqual(r);
  });

  it.each([
    ['one state too few', good.split('\n').slice(0, 4).join('\n'), /Expected 3 states/],
    ['one state too many', `${good}\nState 4: Extra.`, /Expected 3 states/],
    ['no sub-tasks', 'State 1: Start.', /no Subtask/],
    ['a gap in numbering', good.replace('Subtask 2', 'Subtask 3'), /expected Subtask 2/],
    ['numbering from 0', good.replace('Subtask 1', 'Subtask 0'), /expected Subtask 1/],
    ['a sub-task after the states', `${good}\nSubtask 3: More.`, /after the State lines/],
    ['extra prose', `Here is the plan:\n${good}`, /neither/],
    ['an empty state', good.replace('State 2: The sales figures are collected.', 'State 2:'), /empty/],
    ['empty answer', '', /empty/],
  ])('rejects %s', (_label, raw, reason) => {
    const r = parseTaskAnswer(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(reason);
  });

  it('checks hand-typed lists by the same rule', () => {
    expect(validateTaskDecomposition({ subtasks: ['Do it.'], states: ['Start.', 'Done.'] }).ok).toBe(true);
    const bad = validateTaskDecomposition({ subtasks: ['Do it.'], states: ['Start.'] });
    expect(bad.ok).toBe(false);
    expect(validateTaskDecomposition({ subtasks: [' '], states: ['a', 'b'] }).ok).toBe(false);
  });
});

describe('the bundled sample tasks', () => {
  it('carry hand parses that pass the same rules, in text form too', () => {
    const file = path.resolve(
      path.dirname(fileURLToPath(import.meta.url)),
      '../../resources/sample-tasks.jsonl',
    );
    const tasks = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { id: string; parse: { subtasks: string[]; states: string[] } });
    expect(tasks.length).toBeGreaterThan(0);
    for (const t of tasks) {
      const checked = validateTaskDecomposition(t.parse);
      expect(checked, t.id).toMatchObject({ ok: true });
      if (checked.ok) expect(parseTaskAnswer(formatTaskDecomposition(checked.value))).toEqual(checked);
    }
  });
});
