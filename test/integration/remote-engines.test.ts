// Remote engines against a real HTTP server on 127.0.0.1: OpenAI-compatible embeddings and rerank/score endpoints,
// with batching, retries, timeouts and clear error codes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createRemoteEmbedder,
  type RemoteEmbedderConfig,
} from '../../src/core/models/remote/openai-embedder';
import { createRemoteCrossEncoder, logit } from '../../src/core/models/remote/rerank-cross-encoder';
import { createCachedCrossEncoder } from '../../src/core/models/score-cache';
import { denseRecall } from '../../src/core/search/dense';
import { buildVectorIndex } from '../../src/core/search/vector-index';
import { retryDelayMs } from '../../src/core/models/remote/http-json';
import { createRemoteEngineFactory } from '../../src/core/models/remote/remote-engine-factory';
import { defaultSettings } from '../../src/shared/settings';
import { startModelServer, type ModelServer } from './remote-fixture';
import { openTestLibrary, type TestLibrary } from './vector-fixture';

let server: ModelServer;
let lib: TestLibrary | undefined;
beforeEach(async () => {
  server = await startModelServer();
});
afterEach(async () => {
  await server.close();
  lib?.close();
  lib = undefined;
});

const opts = { instruction: 'Does the document help?' };

function createOpenAiEmbedderForTest(at: { url: string }, extra: Partial<RemoteEmbedderConfig>) {
  return createRemoteEmbedder({
    baseURL: `${at.url}/v1`,
    model: 'qwen3-embed',
    timeoutMs: 5000,
    maxRetries: 0,
    ...extra,
  });
}

describe('remote embedder (/v1/embeddings)', () => {
  it('learns the dimension, batches, wraps queries with the instruction and returns unit vectors', async () => {
    const e = await createOpenAiEmbedderForTest(server, { batchSize: 2 });
    expect(e).toMatchObject({ engine: 'remote', id: 'remote:qwen3-embed', dim: 32 });
    const docs = await e.embed(['a b', 'c d', 'e f'], { role: 'document' });
    const [q] = await e.embed(['find pdf'], { role: 'query', instruction: 'Retrieve a skill' });
    const inputs = server.requests.map((r) => r.body.input);
    expect(inputs).toEqual([
      ['dimension probe'],
      ['a b', 'c d'],
      ['e f'],
      ['Instruct: Retrieve a skill\nQuery:find pdf'],
    ]);
    expect(
      server.requests.every((r) => r.body.encoding_format === 'float' && r.body.model === 'qwen3-embed'),
    ).toBe(true);
    for (const v of [...docs, q!]) expect(v.reduce((s, x) => s + x * x, 0)).toBeCloseTo(1, 5);
  });

  it('sends a set dimension to the server and needs no probe', async () => {
    const e = await createOpenAiEmbedderForTest(server, { dimensions: 16 });
    expect(e.dim).toBe(16);
    expect(e.id).toBe('remote:qwen3-embed:16');
    await e.embed(['x'], { role: 'document' });
    expect(server.requests.map((r) => r.body.dimensions)).toEqual([16]);
  });

  it('retries a 429 and succeeds', async () => {
    const e = await createOpenAiEmbedderForTest(server, { maxRetries: 2 });
    server.queue('/v1/embeddings', { status: 429, headers: { 'retry-after-ms': '10' } });
    const [v] = await e.embed(['hello'], { role: 'document' });
    expect(v).toHaveLength(32);
    expect(server.requests.filter((r) => (r.body.input as string[])[0] === 'hello')).toHaveLength(2);
  });

  it('says MODEL_ERROR for a server error, TIMEOUT for a hang, and MODEL_ERROR for malformed JSON', async () => {
    const e = await createOpenAiEmbedderForTest(server, { maxRetries: 0, timeoutMs: 300 });
    server.queue(
      '/v1/embeddings',
      { status: 500 },
      { hang: true },
      { body: '{"data": [', headers: { 'content-type': 'application/json' } },
    );
    await expect(e.embed(['a'], { role: 'document' })).rejects.toMatchObject({ code: 'MODEL_ERROR' });
    await expect(e.embed(['a'], { role: 'document' })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(e.embed(['a'], { role: 'document' })).rejects.toMatchObject({ code: 'MODEL_ERROR' });
  });

  it('says ENDPOINT_UNREACHABLE when nothing listens', async () => {
    const url = server.url;
    await server.close();
    await expect(createOpenAiEmbedderForTest({ url }, { maxRetries: 0 })).rejects.toMatchObject({
      code: 'ENDPOINT_UNREACHABLE',
    });
    server = await startModelServer();
  });

  it('builds the vector index and serves dense recall', async () => {
    lib = openTestLibrary();
    const pdf = lib.add({ name: 'pdf-extract', description: 'Extract tables from PDF files' });
    lib.add({ name: 'git-release', description: 'Tag a git release' });
    const e = await createOpenAiEmbedderForTest(server, {});
    const report = await buildVectorIndex({ db: lib.db }, e, {
      signal: new AbortController().signal,
      report: () => {},
    });
    expect(report.embedded).toBe(2);
    const hits = await denseRecall(lib.db, e, 'pdf tables', 1, {}, { instruction: 'Retrieve' });
    expect(hits[0]?.skillId).toBe(pdf);
  });
});

describe('remote cross-encoder (rerank / score)', () => {
  it('turns the probabilities of /rerank into log-odds, in input order, grouping pairs by query', async () => {
    const ce = createRemoteCrossEncoder({
      baseURL: server.url,
      model: 'qwen3-rerank',
      template: 'none',
      batchSize: 2,
    });
    const pairs = [
      { query: 'pdf tables', document: 'nothing here' },
      { query: 'git tag', document: 'git tag release' },
      { query: 'pdf tables', document: 'pdf tables inside' },
      { query: 'pdf tables', document: 'only pdf' },
    ];
    const scores = await ce.score(pairs, opts);
    expect(scores.map((s) => s.r)).toEqual(
      [logit(0.05), logit(0.95), logit(0.95), logit(0.5)].map((r) => expect.closeTo(r, 9)),
    );
    expect(1 / (1 + Math.exp(-scores[3]!.r))).toBeCloseTo(0.5, 9);
    expect(server.requests.map((r) => [r.path, r.body.query, (r.body.documents as string[]).length])).toEqual(
      [
        ['/rerank', 'pdf tables', 2],
        ['/rerank', 'pdf tables', 1],
        ['/rerank', 'git tag', 1],
      ],
    );
    expect(ce).toMatchObject({ engine: 'remote', id: 'remote:qwen3-rerank' });
  });

  it('wraps query and document in the Qwen3-Reranker prompt and flags documents cut to the token budget', async () => {
    const ce = createRemoteCrossEncoder({ baseURL: `${server.url}/v1`, model: 'm' });
    const long = 'word '.repeat(2000);
    const [short, cut] = await ce.score(
      [
        { query: 'q', document: 'short doc' },
        { query: 'q', document: long },
      ],
      { ...opts, maxTokens: 300 },
    );
    const body = server.requests[0]!;
    expect(body.path).toBe('/v1/rerank');
    expect(body.body.query).toContain('<Instruct>: Does the document help?\n<Query>: q\n');
    expect((body.body.documents as string[])[0]).toMatch(
      /^<Document>: short doc<\|im_end\|>\n<\|im_start\|>assistant\n<think>\n\n<\/think>\n\n$/,
    );
    // The cut keeps the document's head: the whole prompt fits 300 tokens at three characters a token.
    const suffix = '<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n';
    const room = 300 * 3 - (body.body.query as string).length - suffix.length;
    expect(room).toBeGreaterThan(100);
    expect((body.body.documents as string[])[1]).toBe(`<Document>: ${long.slice(0, room)}${suffix}`);
    expect([short!.truncated, cut!.truncated]).toEqual([false, true]);
  });

  it('speaks vLLM /score and TEI /rerank', async () => {
    const score = createRemoteCrossEncoder({
      baseURL: server.url,
      model: 'm',
      api: 'score',
      template: 'none',
    });
    const tei = createRemoteCrossEncoder({ baseURL: server.url, model: 'm', api: 'tei', template: 'none' });
    const pair = [{ query: 'pdf', document: 'a pdf' }];
    expect((await score.score(pair, opts))[0]!.r).toBeCloseTo(logit(0.95), 9);
    expect((await tei.score(pair, opts))[0]!.r).toBeCloseTo(logit(0.95), 9);
    expect(server.requests.map((r) => r.path)).toEqual(['/score', '/rerank']);
    expect(server.requests[1]!.body.texts).toEqual(['a pdf']);
  });

  it('retries 429 and 5xx honouring Retry-After, then fails with a clear code', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const ce = createRemoteCrossEncoder({
      baseURL: server.url,
      model: 'm',
      template: 'none',
      maxRetries: 2,
      timeoutMs: 300,
      sleep,
    });
    const pair = [{ query: 'pdf', document: 'pdf' }];
    server.queue('/rerank', { status: 429, headers: { 'retry-after': '2' } }, { status: 503 });
    expect((await ce.score(pair, opts))[0]!.r).toBeCloseTo(logit(0.95), 9);
    expect(waits[0]).toBe(2000);
    expect(waits).toHaveLength(2);

    server.queue('/rerank', { status: 500 }, { status: 500 }, { status: 500 });
    await expect(ce.score(pair, opts)).rejects.toMatchObject({
      code: 'MODEL_ERROR',
      details: { status: 500 },
    });
    server.queue('/rerank', { hang: true }, { hang: true }, { hang: true });
    await expect(ce.score(pair, opts)).rejects.toMatchObject({ code: 'TIMEOUT' });
    server.queue('/rerank', { body: '{"results": [{"index": 0,' });
    await expect(ce.score(pair, opts)).rejects.toMatchObject({
      code: 'MODEL_ERROR',
      message: expect.stringContaining('malformed JSON'),
    });
    server.queue('/rerank', { status: 400, body: { error: 'bad model' } });
    await expect(ce.score(pair, opts)).rejects.toMatchObject({
      code: 'MODEL_ERROR',
      details: { status: 400 },
    });
  });

  it('refuses probabilities outside [0, 1] unless told the server sends logits', async () => {
    const prob = createRemoteCrossEncoder({ baseURL: server.url, model: 'm', template: 'none' });
    const raw = createRemoteCrossEncoder({
      baseURL: server.url,
      model: 'm',
      template: 'none',
      scores: 'logit',
    });
    const pair = [{ query: 'pdf', document: 'pdf' }];
    server.queue(
      '/rerank',
      { body: { results: [{ index: 0, relevance_score: 3.5 }] } },
      { body: { results: [{ index: 0, relevance_score: 3.5 }] } },
    );
    await expect(prob.score(pair, opts)).rejects.toMatchObject({ code: 'MODEL_ERROR' });
    expect((await raw.score(pair, opts))[0]!.r).toBe(3.5);
  });

  it('behind the score cache, repeated pairs cost no request', async () => {
    lib = openTestLibrary();
    const ce = createCachedCrossEncoder(
      createRemoteCrossEncoder({ baseURL: server.url, model: 'm', template: 'none' }),
      lib.db,
      'v1',
    );
    const pairs = [{ query: 'pdf', document: 'a pdf' }];
    const first = await ce.score(pairs, opts);
    const second = await ce.score(pairs, opts);
    expect(second).toEqual(first);
    expect(server.requests).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as a date, capped at a minute', () => {
    expect(retryDelayMs(0, '3')).toBe(3000);
    expect(retryDelayMs(0, '600')).toBe(60_000);
    expect(retryDelayMs(0, new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
  });
});

describe('remote engine factory', () => {
  it('builds both engines from the settings, and says what is missing', async () => {
    const settings = defaultSettings();
    const factory = createRemoteEngineFactory({ rerank: { template: 'none' } });
    await expect(factory.embedder(settings)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    settings.remote.embeddings = { baseURL: `${server.url}/v1`, model: 'e', timeoutMs: 5000, maxRetries: 0 };
    settings.remote.rerank = { baseURL: server.url, model: 'r', timeoutMs: 5000, maxRetries: 0 };
    const e = await factory.embedder(settings);
    const ce = await factory.crossEncoder(settings);
    expect([e.id, e.dim, ce.id]).toEqual(['remote:e', 32, 'remote:r']);
    expect((await ce.score([{ query: 'pdf', document: 'pdf' }], opts))[0]!.r).toBeCloseTo(logit(0.95), 9);
  });
});
