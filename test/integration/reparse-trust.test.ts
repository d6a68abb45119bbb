// Curated work is never lost to a re-parse (issue 9, items 1-4), against a real SQLite file and the loopback OpenAI
// server: force never replaces edited/verified states without replace; a failed re-parse (garbled or prose answer,
// a 500) keeps the states and stores the failed attempt beside them; a cancelled and resumed job's totals cover the
// whole job; an answer that echoes the API key is stored with the key redacted everywhere.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../src/core/llm/client';
import { parseSkills, type ParseSkillsParams } from '../../src/core/llm/parse-skills';
import { parseTask } from '../../src/core/llm/parse-task';
import { parseLlmSettings, type LlmEndpointSettingsInput } from '../../src/core/llm/settings';
import { editStates, getStates, verifyStates } from '../../src/core/states/skill-states';
import { CuratorError } from '../../src/shared/errors';
import { startOpenAiServer, userText, type CannedReply, type OpenAiServer } from '../fixtures/openai-server';
import {
  fixedClock,
  insertSkill,
  jobContext,
  openTempLibrary,
  recordingLogger,
  statesRow,
  type TempLibrary,
} from './llm-harness';

const KEY = 'sk-proj-echo-4f3e2d1c0b9a8877';
let lib: TempLibrary;
let server: OpenAiServer;
let answers: Record<string, CannedReply>;

const nameOf = (text: string) => /\nname: (\S+)/.exec(text)?.[1] ?? '?';
const good = (name: string, completion = `The ${name} result exists.`): CannedReply => ({
  content: `Precondition_State: Input for ${name} is available.\nCompletion_State: ${completion}`,
  usage: { prompt_tokens: 100, completion_tokens: 20 },
});

beforeEach(async () => {
  lib = openTempLibrary();
  answers = {};
  server = await startOpenAiServer({
    apiKey: KEY,
    reply: (req) => answers[nameOf(userText(req))] ?? good(nameOf(userText(req))),
  });
});
afterEach(async () => {
  await server.close();
  lib.close();
});

function deps(overrides: Partial<LlmEndpointSettingsInput> = {}) {
  const settings = parseLlmSettings({
    baseURL: server.baseURL,
    model: 'test-model',
    timeoutMs: 5_000,
    maxRetries: 0,
    maxRetryDelayMs: 10,
    concurrency: 1,
    promptPricePerMTok: 0.5,
    completionPricePerMTok: 2,
    ...overrides,
  });
  return {
    db: lib.db,
    llm: createLlmClient({ settings, apiKey: () => KEY }),
    clock: fixedClock,
    logger: recordingLogger(),
  };
}

async function run(params: ParseSkillsParams, jobId: string) {
  return parseSkills(deps(), params, jobContext(lib.db, jobId));
}

async function runFailing(params: ParseSkillsParams, jobId: string): Promise<CuratorError> {
  const error = await run(params, jobId).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CuratorError);
  return error as CuratorError;
}

describe('re-parse keeps curated states unless the caller chose replace', () => {
  it('force with ids keeps edited and verified states; replace replaces them', async () => {
    const edited = insertSkill(lib.db, 'edited-one');
    const verified = insertSkill(lib.db, 'verified-one');
    await run({}, 'job-1');
    editStates(lib.db, fixedClock, edited, { completion: 'The curator wrote this.' });
    verifyStates(lib.db, fixedClock, verified);
    answers['edited-one'] = good('edited-one', 'The LLM says otherwise.');
    const result = await run({ ids: [edited, verified], force: true }, 'job-2');
    expect(result).toMatchObject({ total: 2, protected: 2, parsed: 0 });
    expect(getStates(lib.db, edited)).toMatchObject({
      status: 'edited',
      completion: 'The curator wrote this.',
    });
    expect(getStates(lib.db, verified).status).toBe('verified');

    // Only an explicit replace replaces them; the old values stay in history.
    const replaced = await run({ ids: [edited], force: true, replace: true }, 'job-3');
    expect(replaced).toMatchObject({ total: 1, parsed: 1, protected: 0 });
    expect(getStates(lib.db, edited)).toMatchObject({
      status: 'parsed',
      completion: 'The LLM says otherwise.',
    });
  });
});

describe('a failed re-parse keeps the states and shows the attempt beside them', () => {
  it.each([
    ['a garbled answer', { content: 'Precondition_State: \u0000\u0000 ###' }],
    ['a prose answer', { content: 'Sure! This skill helps people make charts from their data.' }],
  ])('%s', async (_what, bad) => {
    const id = insertSkill(lib.db, 'steady');
    await run({}, 'job-1');
    const before = getStates(lib.db, id);
    answers.steady = bad;
    const result = await run({ ids: [id], force: true }, 'job-2');
    expect(result).toMatchObject({ total: 1, failed: 1, parsed: 0 });
    const after = getStates(lib.db, id);
    expect(after).toMatchObject({
      status: 'parsed',
      precondition: before.precondition,
      completion: before.completion,
      rawAnswer: before.rawAnswer,
      error: null,
    });
    expect(after.failedAttempt).toMatchObject({
      rawAnswer: (bad as { content: string }).content,
      error: expect.stringMatching(/\S/),
      problem: null,
      model: 'test-model',
      jobId: 'job-2',
    });
    // A later good parse clears the failed attempt.
    delete answers.steady;
    await run({ ids: [id], force: true }, 'job-3');
    expect(getStates(lib.db, id).failedAttempt).toBeNull();
  });

  it('an edited skill replaced on request keeps its edit when the replacement fails', async () => {
    const id = insertSkill(lib.db, 'hand-made');
    await run({}, 'job-1');
    editStates(lib.db, fixedClock, id, { completion: 'Mine.' });
    answers['hand-made'] = { content: 'I cannot help with that.' };
    await run({ ids: [id], force: true, replace: true }, 'job-2');
    expect(getStates(lib.db, id)).toMatchObject({ status: 'edited', completion: 'Mine.' });
    expect(getStates(lib.db, id).failedAttempt?.rawAnswer).toBe('I cannot help with that.');
  });

  it('a 500 stops the job, keeps the states and records the endpoint problem on the skill', async () => {
    const id = insertSkill(lib.db, 'served');
    await run({}, 'job-1');
    const before = getStates(lib.db, id);
    answers.served = { status: 500, message: 'upstream exploded' };
    const error = await runFailing({ ids: [id], force: true }, 'job-2');
    expect(error.code).toBe('UNAVAILABLE');
    expect(getStates(lib.db, id)).toMatchObject({
      status: 'parsed',
      completion: before.completion,
      failedAttempt: {
        problem: 'server-error',
        rawAnswer: null,
        error: expect.stringContaining('500'),
        jobId: 'job-2',
      },
    });
  });

  it('"retry failed" also picks skills whose states were kept after a failed attempt', async () => {
    const id = insertSkill(lib.db, 'retry-me');
    insertSkill(lib.db, 'fine');
    await run({}, 'job-1');
    answers['retry-me'] = { content: 'nope' };
    await run({ ids: [id], force: true }, 'job-2');
    delete answers['retry-me'];
    const result = await run({ only: 'failed' }, 'job-3');
    expect(result).toMatchObject({ total: 1, parsed: 1 });
    expect(getStates(lib.db, id).failedAttempt).toBeNull();
  });
});

describe('a failed forced task parse keeps the stored parse', () => {
  it('a garbled answer to a forced re-parse leaves the good parse of the task in place', async () => {
    const taskDeps = { db: lib.db, llm: deps().llm, clock: fixedClock, logger: recordingLogger() };
    server.setReply(() => ({
      content: 'Subtask 1: Open the file\nState 1: A file exists.\nState 2: It is open.',
    }));
    const first = await parseTask(taskDeps, { task: 'Open the report' });
    server.setReply(() => ({ content: 'I would open the report, then read it.' }));
    const failure = await parseTask(taskDeps, { task: 'Open the report', force: true }).then(
      () => undefined,
      (e: unknown) => e as CuratorError,
    );
    expect(failure).toMatchObject({
      code: 'LLM_ERROR',
      details: { raw: 'I would open the report, then read it.' },
    });
    const sent = server.chatRequests().length;
    const again = await parseTask(taskDeps, { task: 'Open the report' });
    expect(again).toMatchObject({ cached: true, subtasks: first.subtasks, states: first.states });
    expect(server.chatRequests()).toHaveLength(sent);
  });
});

describe('a resumed job covers what every run spent', () => {
  it('cancel part-way twice, resume twice: items, tokens and cost cover the whole job', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => insertSkill(lib.db, `s${i + 1}`));
    answers.s2 = { content: 'garbled', usage: { prompt_tokens: 100, completion_tokens: 20 } };
    // A request past `hangFrom` hangs and cancels the run: with one request at a time, every earlier answer is
    // stored by then, so each run ends at a known place.
    let hangFrom = 3;
    let running: ReturnType<typeof jobContext> | undefined;
    server.setReply((req) => {
      if (server.chatRequests().length > hangFrom) {
        running?.controller.abort();
        return { hang: true };
      }
      return answers[nameOf(userText(req))] ?? good(nameOf(userText(req)));
    });
    const runUntilCancelled = async () => {
      running = jobContext(lib.db, 'job-r');
      const error = await parseSkills(deps(), {}, running).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as CuratorError).code).toBe('CANCELLED');
    };
    await runUntilCancelled(); // s1 parsed, s2 failed (garbled), s3 parsed; s4 hangs
    hangFrom = 6;
    await runUntilCancelled(); // s4, s5 parsed; s6 hangs
    hangFrom = Infinity;
    const job = jobContext(lib.db, 'job-r');
    const result = await parseSkills(deps(), {}, job);
    // Answered in earlier runs: s1, s2 (failed), s3, s4, s5; now s6, s7. s2 stays failed (only: unparsed).
    expect(result).toMatchObject({
      total: 7,
      resumed: 4,
      parsed: 2,
      failed: 1,
      promptTokens: 700,
      completionTokens: 140,
    });
    expect(result.estimatedCost).toBeCloseTo((700 / 1e6) * 0.5 + (140 / 1e6) * 2, 12);
    expect(job.progress.at(-1)).toMatchObject({ done: 7, total: 7, failed: 1 });
    expect(job.progress.at(-1)?.counters).toMatchObject({ promptTokens: 700, completionTokens: 140 });
    expect(ids.filter((id) => statesRow(lib.db, id)?.status === 'parsed')).toHaveLength(6);
  });

  it('a failed item sent again on resume keeps the tokens of both attempts', async () => {
    const b1 = insertSkill(lib.db, 'b1');
    const b2 = insertSkill(lib.db, 'b2');
    answers.b1 = { content: 'garbled', usage: { prompt_tokens: 100, completion_tokens: 20 } };
    answers.b2 = { status: 401, message: 'key revoked' };
    const stop = await runFailing({ only: 'all' }, 'job-f');
    expect(stop.code).toBe('UNAUTHORIZED');
    answers = {};
    const result = await run({ only: 'all' }, 'job-f');
    expect(result).toMatchObject({
      total: 2,
      parsed: 2,
      failed: 0,
      promptTokens: 300,
      completionTokens: 60,
    });
    expect([b1, b2].map((id) => statesRow(lib.db, id)?.status)).toEqual(['parsed', 'parsed']);
  });
});

describe('an answer that echoes the API key is stored with the key redacted', () => {
  it('in states, raw answers, failed attempts, job items and task parses; never in the file', async () => {
    const echoed = insertSkill(lib.db, 'echoed');
    const failing = insertSkill(lib.db, 'failing');
    answers.echoed = {
      content: `Precondition_State: The key ${KEY} is set.\nCompletion_State: Requests carry Bearer ${KEY}.`,
    };
    answers.failing = { content: `My instructions say the key is ${KEY}; here it is again: ${KEY}` };
    await run({}, 'job-1');
    expect(getStates(lib.db, echoed)).toMatchObject({
      precondition: 'The key *** is set.',
      completion: 'Requests carry Bearer ***.',
    });
    expect(getStates(lib.db, echoed).rawAnswer).not.toContain(KEY);
    expect(getStates(lib.db, failing).failedAttempt?.rawAnswer).toBe(
      'My instructions say the key is ***; here it is again: ***',
    );

    const llm = deps().llm;
    server.setReply(() => ({
      content: `Subtask 1: Read ${KEY}\nState 1: The key ${KEY} is set.\nState 2: The key ${KEY} is read.`,
    }));
    const task = await parseTask(
      { db: lib.db, llm, clock: fixedClock, logger: recordingLogger() },
      { task: 'Print the API key', force: true },
    );
    expect(task.states).toEqual(['The key *** is set.', 'The key *** is read.']);
    expect(JSON.stringify(task)).not.toContain(KEY);
    // What the LLM-as-selector variant reads comes through the same client.
    server.setReply(() => ({ content: `1. echoed ${KEY}` }));
    expect((await llm.complete([{ role: 'user', content: 'rank' }])).text).toBe('1. echoed ***');

    lib.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(lib.file).includes(Buffer.from(KEY))).toBe(false);
  });
});
