// Task parsing on demand: cached by task + environment note + prompt version + model, strict format, failures kept,
// and hand-typed parses that let the selection engine run with no LLM at all.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CuratorError } from '../../src/shared/errors';
import { createLlmClient } from '../../src/core/llm/client';
import { parseTask, saveManualTaskParse } from '../../src/core/llm/parse-task';
import { TASK_PARSE_PROMPT_VERSION } from '../../src/core/llm/prompts';
import { parseLlmSettings } from '../../src/core/llm/settings';
import { importLabelSet } from '../../src/core/eval/label-store';
import { deleteManualTaskParse, getTaskParse } from '../../src/core/states/task-parses';
import { startOpenAiServer, userText, type OpenAiServer } from '../fixtures/openai-server';
import { fixedClock, openTempLibrary, recordingLogger, type TempLibrary } from './llm-harness';

let lib: TempLibrary;
let server: OpenAiServer;
const answer = [
  'Subtask 1: Load the sales spreadsheet.',
  'Subtask 2: Plot revenue per month.',
  'State 1: A spreadsheet of sales exists.',
  'State 2: The sales data is loaded.',
  'State 3: A monthly revenue chart exists.',
].join('\n');

beforeEach(async () => {
  lib = openTempLibrary();
  server = await startOpenAiServer({ reply: () => ({ content: answer }) });
});
afterEach(async () => {
  await server.close();
  lib.close();
});

function deps(model = 'test-model') {
  const settings = parseLlmSettings({ baseURL: server.baseURL, model, maxRetries: 0 });
  return {
    db: lib.db,
    llm: createLlmClient({ settings, apiKey: () => undefined }),
    clock: fixedClock,
    logger: recordingLogger(),
  };
}

async function rejects(p: Promise<unknown>): Promise<CuratorError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CuratorError);
  return e as CuratorError;
}

describe('parseTask', () => {
  it('parses, stores, and answers the same task again from the cache', async () => {
    const first = await parseTask(deps(), { task: 'Chart monthly revenue from the sales sheet' });
    expect(first).toMatchObject({
      subtasks: ['Load the sales spreadsheet.', 'Plot revenue per month.'],
      states: [
        'A spreadsheet of sales exists.',
        'The sales data is loaded.',
        'A monthly revenue chart exists.',
      ],
      source: 'llm',
      cached: false,
      model: 'test-model',
      promptVersion: TASK_PARSE_PROMPT_VERSION,
      raw: answer,
    });
    const again = await parseTask(deps(), { task: '  Chart monthly revenue from the sales sheet ' });
    expect(again).toMatchObject({ cached: true, subtasks: first.subtasks, states: first.states });
    expect(server.chatRequests()).toHaveLength(1);
    const row = lib.db.prepare('SELECT status, model, prompt_version, raw_answer FROM task_parses').get();
    expect(row).toEqual({
      status: 'parsed',
      model: 'test-model',
      prompt_version: TASK_PARSE_PROMPT_VERSION,
      raw_answer: answer,
    });
  });

  it('includes the environment note (given, or the library’s) and keys the cache on it', async () => {
    await parseTask(deps(), {
      task: 'Chart revenue',
      environmentNote: 'Only a spreadsheet app is available.',
    });
    expect(userText(server.chatRequests()[0]!)).toContain('Only a spreadsheet app is available.');
    await parseTask(deps(), { task: 'Chart revenue', sourceId: 1 });
    expect(userText(server.chatRequests()[1]!)).toContain(
      'The agent has a shell, a Python interpreter and a browser.',
    );
    await parseTask(deps(), { task: 'Chart revenue' });
    expect(server.chatRequests()).toHaveLength(3);
    await parseTask(deps(), { task: 'Chart revenue', sourceId: 1 });
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('asks again under another model or with force', async () => {
    await parseTask(deps(), { task: 'T' });
    await parseTask(deps('other'), { task: 'T' });
    const forced = await parseTask(deps(), { task: 'T', force: true });
    expect(forced.cached).toBe(false);
    expect(server.chatRequests().map((r) => r.body?.model)).toEqual(['test-model', 'other', 'test-model']);
  });

  it('a wrong number of states is an LLM_ERROR with the raw answer, stored as failed and not served from cache', async () => {
    const wrong = 'Subtask 1: Do it.\nState 1: Start.';
    server.enqueue({ content: wrong });
    const error = await rejects(parseTask(deps(), { task: 'Broken' }));
    expect(error.code).toBe('LLM_ERROR');
    expect(error.details).toMatchObject({ raw: wrong, reason: expect.stringMatching(/Expected 2 states/) });
    expect(lib.db.prepare('SELECT status, subtasks, raw_answer FROM task_parses').get()).toEqual({
      status: 'failed',
      subtasks: null,
      raw_answer: wrong,
    });
    const retried = await parseTask(deps(), { task: 'Broken' });
    expect(retried.cached).toBe(false);
    expect(lib.db.prepare('SELECT status FROM task_parses').all()).toEqual([{ status: 'parsed' }]);
  });

  it('refuses an empty task', async () => {
    expect((await rejects(parseTask(deps(), { task: '  ' }))).code).toBe('INVALID_ARGUMENT');
  });
});

describe('hand-typed task parses', () => {
  it('are used without any LLM, and preferred over an LLM parse', async () => {
    const noLlm = { db: lib.db, clock: fixedClock, logger: recordingLogger() };
    expect((await rejects(parseTask(noLlm, { task: 'Chart revenue' }))).code).toBe('UNAVAILABLE');
    saveManualTaskParse(noLlm, {
      task: 'Chart revenue',
      subtasks: ['Make the chart.'],
      states: ['Data exists.', 'Chart exists.'],
    });
    expect(await parseTask(noLlm, { task: 'Chart revenue' })).toMatchObject({
      source: 'manual',
      subtasks: ['Make the chart.'],
    });
    expect(await parseTask(deps(), { task: 'Chart revenue' })).toMatchObject({
      source: 'manual',
      cached: true,
    });
    expect(server.chatRequests()).toHaveLength(0);
    expect(getTaskParse(lib.db, 'Chart revenue')?.source).toBe('manual');
    // Typed once for the task, it serves the task in any library, whatever its environment note.
    expect(await parseTask(deps(), { task: 'Chart revenue', sourceId: 1 })).toMatchObject({
      source: 'manual',
    });
    expect(server.chatRequests()).toHaveLength(0);
  });

  it('can be typed in the answer format, and are checked by the same rules', () => {
    const d = { db: lib.db, clock: fixedClock };
    const saved = saveManualTaskParse(d, {
      task: 'X',
      text: 'Subtask 1: A.\nSubtask 2: B.\nState 1: s0.\nState 2: s1.\nState 3: s2.',
    });
    expect(saved).toMatchObject({ subtasks: ['A.', 'B.'], states: ['s0.', 's1.', 's2.'], source: 'manual' });
    expect(() => saveManualTaskParse(d, { task: 'X', subtasks: ['A.'], states: ['s0.'] })).toThrow(/states/);
    expect(getTaskParse(lib.db, 'X')?.subtasks).toEqual(['A.', 'B.']);
  });

  it('without a hand parse, the latest LLM parse serves a host with no LLM; deleting the hand parse falls back to it', async () => {
    await parseTask(deps(), { task: 'Chart revenue' });
    const noLlm = { db: lib.db, clock: fixedClock, logger: recordingLogger() };
    expect(await parseTask(noLlm, { task: 'Chart revenue' })).toMatchObject({ source: 'llm', cached: true });
    saveManualTaskParse(noLlm, { task: 'Chart revenue', subtasks: ['Mine.'], states: ['a', 'b'] });
    expect(deleteManualTaskParse(lib.db, 'Chart revenue')).toBe(true);
    expect(getTaskParse(lib.db, 'Chart revenue')?.source).toBe('llm');
  });

  it('with no LLM and no stored parse, takes a label set’s parse of exactly this task; a hand parse comes first', async () => {
    const noLlm = { db: lib.db, clock: fixedClock, logger: recordingLogger() };
    importLabelSet(
      lib.db,
      {
        name: 'labels',
        text:
          JSON.stringify({
            id: 't1',
            task: 'Chart revenue',
            gold: ['chart-maker'],
            parse: { subtasks: ['Labelled.'], states: ['a', 'b'] },
          }) + '\n',
      },
      new Date(Date.UTC(2026, 0, 1)),
    );
    expect(await parseTask(noLlm, { task: '  Chart   revenue ' })).toMatchObject({
      source: 'label',
      subtasks: ['Labelled.'],
      states: ['a', 'b'],
    });
    expect((await rejects(parseTask(noLlm, { task: 'Chart revenue twice' }))).code).toBe('UNAVAILABLE');
    saveManualTaskParse(noLlm, { task: 'Chart revenue', subtasks: ['Mine.'], states: ['a', 'b'] });
    expect(await parseTask(noLlm, { task: 'Chart revenue' })).toMatchObject({ source: 'manual' });
    // With an LLM, the LLM parses it: a label's parse stands in only where nothing else can parse.
    deleteManualTaskParse(lib.db, 'Chart revenue');
    expect(await parseTask(deps(), { task: 'Chart revenue' })).toMatchObject({
      source: 'llm',
      cached: false,
    });
  });
});
