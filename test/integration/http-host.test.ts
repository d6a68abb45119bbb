// The HTTP host: token check, loopback binding, errors as {code,message,details}, SSE events.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core';
import { createCore } from '../../src/core';
import type { HttpHost } from '../../src/server/http-host';
import { startHttpHost } from '../../src/server/http-host';

let dir: string;
let core: Core;
let host: HttpHost;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-http-'));
  core = createCore({ dataDir: dir, resourcesDir: path.resolve('resources') });
  host = await startHttpHost({ core });
});

afterAll(async () => {
  await host.close();
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

function call(method: string, body: unknown, token: string | null = host.token, raw?: string) {
  return fetch(`${host.url}/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: raw ?? JSON.stringify(body),
  });
}

describe('HTTP host', () => {
  it('binds to loopback and prints a random token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.token).toMatch(/^[0-9a-f]{48}$/);
  });

  it('refuses calls without the token or with a wrong one, as error data', async () => {
    for (const token of [null, 'wrong', host.token.slice(0, -1) + '0']) {
      if (token === host.token) continue;
      const res = await call('settings.get', {}, token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Missing or wrong token' });
    }
  });

  it('answers a method with its result', async () => {
    const res = await call('settings.get', {});
    expect(res.status).toBe(200);
    const settings = (await res.json()) as { selection: { recallK: number } };
    expect(settings.selection.recallK).toBe(30);
  });

  it('reports unknown methods, bad JSON and invalid arguments with code, message and details', async () => {
    const unknown = await call('library.dropEverything', {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });

    const badJson = await call('settings.get', null, host.token, '{"oops"');
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('JSON'),
    });

    const invalid = await call('settings.update', { patch: { selection: { recallK: -3 } } });
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { code: string; details: { path: string }[] };
    expect(body.code).toBe('INVALID_ARGUMENT');
    expect(body.details[0]?.path).toBe('selection.recallK');
  });

  it('rejects a foreign Host header (DNS rebinding)', async () => {
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/api/settings.get',
          method: 'POST',
          headers: { Host: 'evil.example:80', Authorization: `Bearer ${host.token}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(401);
  });

  it('streams job events over SSE only with the token', async () => {
    const denied = await fetch(`${host.url}/api/events?token=nope`);
    expect(denied.status).toBe(401);

    const controller = new AbortController();
    const res = await fetch(`${host.url}/api/events?token=${host.token}`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    core.context.events.emit({ type: 'library.changed', reason: 'test' });
    let text = '';
    while (!text.includes('library.changed')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain('data: {"type":"library.changed","reason":"test"}');
  });

  it("refuses a relative project folder or export path, which would mean the server's working folder", async () => {
    const project = { target: 'claude-project', projectDir: 'relative-project', skillIds: [1] };
    for (const [method, body] of [
      ['install.run', project],
      ['install.uninstall', project],
      ['install.verify', project],
      ['install.overrides', { ...project, settings: 'project' }],
      ['install.writeOverrides', { ...project, settings: 'local' }],
      ['install.targets', { projectDir: 'relative-project' }],
    ] as const) {
      const res = await call(method, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'The project folder "relative-project" is relative; give an absolute folder path',
      });
    }
    const exported = await call('eval.export', { runId: 1, format: 'csv', path: 'relative-report.csv' });
    expect(exported.status).toBe(400);
    expect(await exported.json()).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'The export path "relative-report.csv" is relative; give an absolute file path',
    });
    expect(existsSync(path.resolve('relative-project'))).toBe(false);
    expect(existsSync(path.resolve('relative-report.csv'))).toBe(false);
  });
});
