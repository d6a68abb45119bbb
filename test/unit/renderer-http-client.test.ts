// The browser-mode client against the real HTTP host and core: answers as typed results, every failure as error data.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { startHttpHost, type HttpHost } from '../../src/server/http-host';
import { ApiError, CuratorClient } from '../../src/renderer/src/client/client';
import { httpTransport } from '../../src/renderer/src/client/http-transport';
import { defaultSettings } from '../../src/shared/settings';

const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('CuratorClient over HTTP', () => {
  let dataDir: string;
  let core: Core;
  let host: HttpHost;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-client-'));
    core = createCore({ dataDir, resourcesDir: path.join(repoRoot, 'resources') });
    host = await startHttpHost({ core, port: 0 });
  });
  afterAll(async () => {
    await host.close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('calls a method and gets its typed answer', async () => {
    const client = new CuratorClient(httpTransport(host.url, host.token));
    const settings = await client.call('settings.get', {});
    expect(settings.selection.recallK).toBe(defaultSettings().selection.recallK);
    const updated = await client.call('settings.update', { patch: { selection: { recallK: 12 } } });
    expect(updated.selection.recallK).toBe(12);
    expect((await client.call('settings.get', {})).selection.recallK).toBe(12);
  });

  it('reports a wrong token as UNAUTHORIZED data', async () => {
    const client = new CuratorClient(httpTransport(host.url, 'not-the-token'));
    const error = await client.call('settings.get', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('UNAUTHORIZED');
  });

  it('reports an error of the core with its code and message', async () => {
    const client = new CuratorClient(httpTransport(host.url, host.token));
    const error = (await client.call('jobs.get', { id: 'no-such-job' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toMatch(/no-such-job/);
  });

  it('says the server is gone when nothing listens', async () => {
    const other = await startHttpHost({ core, port: 0 });
    const url = other.url;
    await other.close();
    const client = new CuratorClient(httpTransport(url, other.token));
    const error = (await client.call('settings.get', {}).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('ENDPOINT_UNREACHABLE');
    expect(error.message).toMatch(/serve/);
  });
});
