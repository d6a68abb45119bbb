// The LLM client against a real loopback server: retries as the server asks, timeouts, the size limit,
// cancellation, token counts, and a key that goes out only in the Authorization header.
import { afterEach, describe, expect, it } from 'vitest';
import { CuratorError } from '../../src/shared/errors';
import { createLlmClient } from '../../src/core/llm/client';
import { parseLlmSettings, type LlmEndpointSettingsInput } from '../../src/core/llm/settings';
import { sleep } from '../../src/core/llm/retry';
import { startOpenAiServer, type OpenAiServer } from '../fixtures/openai-server';
import { recordingLogger } from './llm-harness';

const KEY = 'sk-test-4f9a1c2e7b';
let server: OpenAiServer;
afterEach(async () => server?.close());

function clientFor(overrides: Partial<LlmEndpointSettingsInput> = {}) {
  const waits: number[] = [];
  const logger = recordingLogger();
  const settings = parseLlmSettings({
    baseURL: server.baseURL,
    model: 'test-model',
    timeoutMs: 400,
    maxRetries: 2,
    maxRetryDelayMs: 5_000,
    ...overrides,
  });
  const client = createLlmClient({
    settings,
    apiKey: () => KEY,
    logger,
    random: () => 0,
    // A real wait, recorded so the test can see how long the client chose to wait.
    sleep: (ms, signal) => (waits.push(ms), sleep(Math.min(ms, 50), signal)),
  });
  return { client, waits, logger };
}

const ask = [{ role: 'user' as const, content: 'Say OK' }];

async function failure(p: Promise<unknown>): Promise<CuratorError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CuratorError);
  return error as CuratorError;
}

describe('LLM client', () => {
  it('returns the text and token usage, sending the model, temperature 0 and the key as a bearer token', async () => {
    server = await startOpenAiServer({ apiKey: KEY });
    server.enqueue({ content: 'OK', usage: { prompt_tokens: 11, completion_tokens: 2 } });
    const { client } = clientFor();
    const answer = await client.complete(ask);
    expect(answer).toMatchObject({
      text: 'OK',
      usage: { promptTokens: 11, completionTokens: 2 },
      attempts: 1,
    });
    const [request] = server.chatRequests();
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toMatchObject({ model: 'test-model', temperature: 0 });
  });

  it('waits as long as a 429 Retry-After (seconds) asks, then succeeds', async () => {
    server = await startOpenAiServer();
    server.enqueue({ status: 429, headers: { 'retry-after': '3' } }, { content: 'later' });
    const { client, waits } = clientFor();
    const answer = await client.complete(ask);
    expect(answer.text).toBe('later');
    expect(answer.attempts).toBe(2);
    expect(waits).toEqual([3000]);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('reads a Retry-After HTTP date, capped at the longest wait', async () => {
    server = await startOpenAiServer();
    server.enqueue(
      { status: 429, headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } },
      { content: 'ok' },
    );
    const { client, waits } = clientFor({ maxRetryDelayMs: 2_000 });
    await client.complete(ask);
    expect(waits).toEqual([2000]);
  });

  it('retries a 500 with backoff and then succeeds', async () => {
    server = await startOpenAiServer();
    server.enqueue({ status: 500 }, { status: 503 }, { content: 'fine' });
    const { client, waits } = clientFor();
    const answer = await client.complete(ask);
    expect(answer).toMatchObject({ text: 'fine', attempts: 3 });
    expect(waits).toEqual([250, 500]);
  });

  it('gives up after maxRetries with a plain message', async () => {
    server = await startOpenAiServer();
    server.setReply(() => ({ status: 502, message: 'bad gateway' }));
    const { client } = clientFor({ maxRetries: 1 });
    const error = await failure(client.complete(ask));
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.message).toMatch(/internal error \(502\).*bad gateway/);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('times out a connection that hangs, retries, then reports TIMEOUT', async () => {
    server = await startOpenAiServer();
    server.setReply(() => ({ hang: true }));
    const { client } = clientFor({ timeoutMs: 300, maxRetries: 1 });
    const error = await failure(client.complete(ask));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/no complete answer within 0.3 s/);
    expect(error.details).toMatchObject({ problem: 'timeout', attempts: 2 });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('times out an answer whose body stops arriving after the headers', async () => {
    server = await startOpenAiServer();
    server.setReply(() => ({ stallAfterHeaders: true }));
    const { client } = clientFor({ timeoutMs: 300, maxRetries: 0 });
    const error = await failure(client.complete(ask));
    expect(error.code).toBe('TIMEOUT');
  });

  it('sends no Authorization header when there is no key (local servers)', async () => {
    server = await startOpenAiServer();
    const settings = parseLlmSettings({ baseURL: server.baseURL, model: 'm' });
    await createLlmClient({ settings, apiKey: () => undefined }).complete(ask);
    expect(server.chatRequests()[0]?.headers.authorization).toBeUndefined();
  });

  it('reports a key store that cannot be read, without retrying', async () => {
    server = await startOpenAiServer();
    const settings = parseLlmSettings({ baseURL: server.baseURL, model: 'm' });
    const client = createLlmClient({
      settings,
      apiKey: () => {
        throw new Error('keychain locked');
      },
    });
    const error = await failure(client.complete(ask));
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toMatch(/API key could not be read.*keychain locked/);
    expect(server.chatRequests()).toHaveLength(0);
  });

  it('refuses a 20 MB answer without retrying it', async () => {
    server = await startOpenAiServer();
    server.enqueue({ hugeContentBytes: 20 * 1024 * 1024 });
    const { client } = clientFor({ timeoutMs: 20_000 });
    const error = await failure(client.complete(ask));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toMatch(/larger than the limit of 2097152 bytes/);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('says so when the server is not an OpenAI endpoint', async () => {
    server = await startOpenAiServer();
    server.enqueue({ raw: '<html><body>Welcome to nginx</body></html>' });
    const { client } = clientFor();
    const error = await failure(client.complete(ask));
    expect(error.code).toBe('LLM_ERROR');
    expect(error.message).toMatch(/not in the OpenAI chat-completions format/);
  });

  it('shows the message of an error object a gateway sends with status 200', async () => {
    server = await startOpenAiServer();
    server.enqueue({
      raw: '{"error":{"message":"upstream model is loading"}}',
      contentType: 'application/json',
    });
    const { client } = clientFor();
    const error = await failure(client.complete(ask));
    expect(error.message).toMatch(/no "choices"\).*upstream model is loading/);
  });

  it('stops at once when cancelled, even mid-request', async () => {
    server = await startOpenAiServer();
    server.setReply(() => ({ hang: true }));
    const { client } = clientFor({ timeoutMs: 30_000 });
    const controller = new AbortController();
    const pending = client.complete(ask, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await failure(pending);
    expect(error.code).toBe('CANCELLED');
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('never puts the key in a log line or error message, even when the server echoes it', async () => {
    server = await startOpenAiServer();
    server.setReply(() => ({ status: 503, message: `key ${KEY} is over quota` }));
    const { client, logger } = clientFor({ maxRetries: 1 });
    const error = await failure(client.complete(ask));
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('***');
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.join('\n')).not.toContain(KEY);
  });
});
