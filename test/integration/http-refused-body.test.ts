// A body the host refuses (an upload over the cap, a JSON call over its limit) is answered with 413, and the client's
// keep-alive connection stays usable: the next request on the same agent (one socket) gets its answer.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { startHttpHost, type HttpHost } from '../../src/server/http-host';

let dir: string;
let core: Core;
let host: HttpHost;
let agent: http.Agent;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-refused-body-'));
  core = createCore({ dataDir: dir, resourcesDir: path.resolve('resources') });
  host = await startHttpHost({
    core,
    uploadDir: path.join(dir, 'uploads'),
    maxUploadBytes: 4096,
    maxBodyBytes: 2048,
  });
});

afterAll(async () => {
  await host.close();
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
});
afterEach(() => agent.destroy());

/** A POST through the keep-alive agent; a streamed body goes in chunks without a Content-Length (chunked). */
function post(
  pathAndQuery: string,
  body: Buffer,
  streamed = false,
): Promise<{ status: number; connection?: string; json: { code?: string; message?: string } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${host.url}${pathAndQuery}`,
      {
        method: 'POST',
        agent,
        headers: {
          Authorization: `Bearer ${host.token}`,
          ...(streamed ? {} : { 'Content-Length': body.length }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            json: JSON.parse(text) as never,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (streamed) for (let i = 0; i < body.length; i += 1000) req.write(body.subarray(i, i + 1000));
    else req.write(body);
    req.end();
  });
}

const settingsCall = () => post('/api/settings.get', Buffer.from('{}'));

describe('a refused body on a keep-alive connection', () => {
  for (const streamed of [false, true]) {
    it(`answers an over-size upload (${streamed ? 'streamed' : 'with its length'}) with 413, then the next request`, async () => {
      const refused = await post('/api/upload?name=big.zip', Buffer.alloc(20_000, 1), streamed);
      expect(refused.status).toBe(413);
      expect(refused.json.code).toBe('TOO_LARGE');
      // The client is told not to reuse this connection, the rest of whose body the host dropped.
      expect(refused.connection).toBe('close');
      const next = await settingsCall();
      expect(next.status).toBe(200);
      expect(next.json).toHaveProperty('selection');
    });
  }

  it('answers an API call whose JSON body is over the limit with 413, then the next request', async () => {
    const big = Buffer.from(JSON.stringify({ query: 'x'.repeat(10_000) }));
    for (const streamed of [false, true]) {
      const refused = await post('/api/library.search', big, streamed);
      expect(refused.status).toBe(413);
      expect(refused.json.code).toBe('TOO_LARGE');
      const next = await settingsCall();
      expect(next.status).toBe(200);
    }
  });

  it('says the cap in a unit that reads: 4 KiB, not 0 MiB', async () => {
    const refused = await post('/api/upload?name=big.zip', Buffer.alloc(20_000, 1));
    expect(refused.json.message).toBe('The upload is over 4 KiB');
  });
});
