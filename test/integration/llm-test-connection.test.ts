// "Test connection" names what is wrong in plain words: DNS, refused, 401, unknown model, wrong path, timeout,
// a server that is not OpenAI-compatible.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../src/core/llm/client';
import { parseLlmSettings } from '../../src/core/llm/settings';
import { recordingLogger } from './llm-harness';
import { testConnection } from '../../src/core/llm/test-connection';
import { startOpenAiServer, type OpenAiServer } from '../fixtures/openai-server';

let server: OpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const settings = (baseURL: string, model = 'test-model') =>
  parseLlmSettings({ baseURL, model, timeoutMs: 500 });

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('testConnection', () => {
  it('reports success with the model and latency', async () => {
    server = await startOpenAiServer({ apiKey: 'sk-good', models: ['test-model'] });
    const report = await testConnection(settings(server.baseURL), () => 'sk-good');
    expect(report.ok).toBe(true);
    expect(report.model).toBe('test-model');
    expect(report.message).toMatch(/^Connected: test-model answered/);
  });

  it('names a host that does not resolve', async () => {
    const report = await testConnection(settings('http://no-such-host.invalid/v1'), () => 'k');
    expect(report).toMatchObject({ ok: false, problem: 'dns' });
    expect(report.message).toMatch(/"no-such-host.invalid" could not be found/);
  });

  it('names a port nobody listens on', async () => {
    const port = await freePort();
    const report = await testConnection(settings(`http://127.0.0.1:${port}/v1`), () => 'k');
    expect(report).toMatchObject({ ok: false, problem: 'refused' });
    expect(report.message).toMatch(/connection refused.*is the server running/);
  });

  it('names a port fetch never connects to, and does not retry it', async () => {
    const report = await testConnection(settings('http://127.0.0.1:9/v1'), () => 'k');
    expect(report).toMatchObject({ ok: false, problem: 'bad-port' });
    expect(report.message).toMatch(/"bad port" of the Fetch standard.*another port/);
    // A request through the client fails at once: no retry can reach such a port.
    const logger = recordingLogger();
    const client = createLlmClient({
      settings: parseLlmSettings({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 3 }),
      apiKey: () => 'k',
      logger,
    });
    await expect(client.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({
      code: 'ENDPOINT_UNREACHABLE',
    });
    expect(logger.lines.filter((l) => l.includes('retrying'))).toEqual([]);
  });

  it('names a rejected key', async () => {
    server = await startOpenAiServer({ apiKey: 'sk-good' });
    const report = await testConnection(settings(server.baseURL), () => 'sk-wrong');
    expect(report).toMatchObject({ ok: false, problem: 'unauthorized' });
    expect(report.message).toMatch(/refused the API key \(401\)/);
  });

  it('names an unknown model and lists the ones offered', async () => {
    server = await startOpenAiServer({ models: ['llama3.1:8b', 'qwen3:4b'] });
    const report = await testConnection(settings(server.baseURL, 'gpt-9'), () => undefined);
    expect(report).toMatchObject({
      ok: false,
      problem: 'model-not-found',
      availableModels: ['llama3.1:8b', 'qwen3:4b'],
    });
    expect(report.message).toMatch(/no model named "gpt-9".*offers: llama3.1:8b, qwen3:4b/);
  });

  it('names a base URL without the chat-completions route', async () => {
    server = await startOpenAiServer();
    const report = await testConnection(settings(server.baseURL.replace(/\/v1$/, '')), () => 'k');
    expect(report).toMatchObject({ ok: false, problem: 'not-found' });
    expect(report.message).toMatch(/usually end in \/v1/);
  });

  it('names a server that never answers', async () => {
    server = await startOpenAiServer({ reply: () => ({ hang: true }) });
    const report = await testConnection(settings(server.baseURL), () => 'k');
    expect(report).toMatchObject({ ok: false, problem: 'timeout' });
    expect(report.message).toMatch(/no complete answer within 0.5 s/);
  });

  it('names a server that answers something else than the OpenAI protocol', async () => {
    server = await startOpenAiServer({
      reply: () => ({ raw: '{"status":"ok"}', contentType: 'application/json' }),
    });
    const report = await testConnection(settings(server.baseURL), () => 'k');
    expect(report).toMatchObject({ ok: false, problem: 'not-openai' });
  });
});
