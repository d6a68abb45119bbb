// The LLM part of the API over a real core context (SQLite file, job runner, settings store, events) and the
// loopback OpenAI server: what `llm test`, `parse skills`, `parse task` and `states …` do for a host.
import { createEngines } from '../../src/core/engines';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmApi } from '../../src/shared/api/llm';
import type { CuratorEvent } from '../../src/shared/events';
import type { JobInfo } from '../../src/shared/jobs';
import type { CoreContext } from '../../src/core/context';
import { EventBus } from '../../src/core/event-bus';
import { JobRunner } from '../../src/core/jobs/job-runner';
import { createLlmApi } from '../../src/core/llm/llm-api';
import { SettingsStore } from '../../src/core/settings-store';
import { silentLogger } from '../../src/core/logger';
import { startOpenAiServer, userText, type OpenAiServer } from '../fixtures/openai-server';
import { fixedClock, insertSkill, openTempLibrary, statesRow, type TempLibrary } from './llm-harness';

const KEY = 'sk-api-test-77c1d0e9';
let lib: TempLibrary;
let server: OpenAiServer;
let ctx: CoreContext;
let api: Omit<LlmApi, 'states.import' | 'states.export'>;
let events: CuratorEvent[];

const goodAnswer = (name: string) => ({
  content: `Precondition_State: None\nCompletion_State: The ${name} output exists.`,
});
const nameOf = (text: string) => /\nname: (\S+)/.exec(text)?.[1] ?? '?';

beforeEach(async () => {
  lib = openTempLibrary();
  server = await startOpenAiServer({ apiKey: KEY, reply: (req) => goodAnswer(nameOf(userText(req))) });
  let secret: string | null = null;
  const bus = new EventBus();
  events = [];
  bus.on((e) => void events.push(e));
  const settings = new SettingsStore(lib.db);
  ctx = {
    db: lib.db,
    paths: { dataDir: '', dbFile: lib.file, modelsDir: '', resourcesDir: '' },
    clock: fixedClock,
    logger: silentLogger,
    events: bus,
    jobs: new JobRunner(lib.db, {
      clock: fixedClock,
      onUpdate: (job) => bus.emit({ type: 'job.updated', job }),
      throttleMs: 0,
    }),
    settings,
    engines: createEngines(lib.db, () => settings.get(), { onnx: undefined, remote: undefined }),
    secrets: { getApiKey: async () => secret, setApiKey: async (k) => void (secret = k) },
  };
  api = createLlmApi(ctx);
});
afterEach(async () => {
  await ctx.jobs.close();
  await server.close();
  lib.close();
});

function configure() {
  ctx.settings.update({
    llm: { baseURL: server.baseURL, model: 'test-model', timeoutMs: 2_000, maxRetries: 0 },
  });
}

describe('LLM API', () => {
  it('llm.test explains a missing model, a missing key, then connects', async () => {
    expect(await api['llm.test']({})).toMatchObject({
      ok: false,
      message: expect.stringMatching(/no model is chosen/),
    });
    configure();
    expect(await api['llm.test']({})).toMatchObject({ ok: false, message: expect.stringMatching(/401/) });
    expect(await api['llm.setApiKey']({ apiKey: KEY })).toEqual({ stored: true });
    expect(await api['llm.test']({})).toMatchObject({ ok: true, model: 'test-model' });
    expect(JSON.stringify(ctx.settings.get())).not.toContain(KEY);
  });

  it('parse.skills runs as a job; states.* review the result; events tell the hosts', async () => {
    configure();
    await api['llm.setApiKey']({ apiKey: KEY });
    const a = insertSkill(lib.db, 'alpha');
    const b = insertSkill(lib.db, 'beta');
    const started = await api['parse.skills']({});
    const job = await ctx.jobs.wait(started.id);
    expect(job).toMatchObject({ kind: 'parse.skills', status: 'done', result: { total: 2, parsed: 2 } });
    expect(events.some((e) => e.type === 'states.changed' && e.skillIds.includes(b))).toBe(true);

    expect(await api['states.get']({ skillId: a })).toMatchObject({
      status: 'parsed',
      precondition: null,
      completion: 'The alpha output exists.',
    });
    expect(await api['states.edit']({ skillId: a, precondition: 'A draft exists.' })).toMatchObject({
      status: 'edited',
      precondition: 'A draft exists.',
    });
    expect((await api['states.verify']({ skillId: a })).status).toBe('verified');
    const history = await api['states.history']({ skillId: a });
    expect(history.map((h) => h.action)).toEqual(['verify', 'edit', 'parse']);
    const editEntry = history[1]!;
    expect(await api['states.revert']({ skillId: a, historyId: editEntry.id })).toMatchObject({
      status: 'parsed',
      precondition: null,
    });
    expect(await api['states.next']({ afterId: a })).toEqual({ skillId: b });
    await expect(api['states.get']({ skillId: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('parse.skills refuses bad parameters and an endpoint that is not set up', async () => {
    await expect(api['parse.skills']({})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    configure();
    await expect(api['parse.skills']({ only: 'some' as 'all' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('a cancelled parsing job resumes under the same id and finishes what is left', async () => {
    configure();
    await api['llm.setApiKey']({ apiKey: KEY });
    const ids = ['r1', 'r2', 'r3'].map((n) => insertSkill(lib.db, n));
    ctx.settings.update({ llm: { concurrency: 1, timeoutMs: 30_000 } });
    server.setReply((req) => (nameOf(userText(req)) === 'r1' ? goodAnswer('r1') : { hang: true }));
    const started: JobInfo = await api['parse.skills']({});
    const t0 = Date.now();
    while (server.chatRequests().length < 2 && Date.now() - t0 < 10_000)
      await new Promise((r) => setTimeout(r, 10));
    await expect(api['parse.skills']({})).rejects.toMatchObject({ code: 'CONFLICT' });
    ctx.jobs.cancel(started.id);
    expect((await ctx.jobs.wait(started.id)).status).toBe('cancelled');
    expect(ids.map((id) => statesRow(lib.db, id)?.status)).toEqual(['parsed', undefined, undefined]);

    server.setReply((req) => goodAnswer(nameOf(userText(req))));
    ctx.jobs.resume(started.id);
    const finished = await ctx.jobs.wait(started.id);
    expect(finished.status).toBe('done');
    expect(ids.map((id) => statesRow(lib.db, id)?.status)).toEqual(['parsed', 'parsed', 'parsed']);
    expect(server.chatRequests().map((r) => nameOf(userText(r)))).toEqual(['r1', 'r2', 'r2', 'r3']);
  });

  it('parse.task uses the library’s environment note and works from a hand parse without an endpoint', async () => {
    await expect(api['parse.task']({ task: 'Plot sales' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    configure();
    await api['llm.setApiKey']({ apiKey: KEY });
    server.setReply(() => ({
      content: 'Subtask 1: Plot it.\nState 1: Data exists.\nState 2: A plot exists.',
    }));
    const parse = await api['parse.task']({ task: 'Plot sales', sourceId: 1 });
    expect(parse).toMatchObject({
      subtasks: ['Plot it.'],
      states: ['Data exists.', 'A plot exists.'],
      source: 'llm',
      cached: false,
    });
    expect(userText(server.chatRequests()[0]!)).toContain('a Python interpreter');
  });
});
