// Browser mode's upload route: same token as the API, a size cap, only a .zip or a SKILL.md, and the path it returns
// imports (a SKILL.md lands in a folder named after its skill, as the single-file import checks).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { ImportReport } from '../../src/shared/api';
import { startHttpHost, type HttpHost } from '../../src/server/http-host';
import { skillMd } from '../fixtures/git-skills';

let dir: string;
let core: Core;
let host: HttpHost;
let bare: HttpHost;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-upload-'));
  core = createCore({ dataDir: dir, resourcesDir: path.resolve('resources') });
  host = await startHttpHost({ core, uploadDir: path.join(dir, 'uploads'), maxUploadBytes: 4096 });
  bare = await startHttpHost({ core });
});

afterAll(async () => {
  await host.close();
  await bare.close();
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const upload = (name: string, body: string | Buffer, token: string | null = host.token, to = host) =>
  fetch(`${to.url}/api/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });

describe('POST /api/upload', () => {
  it('takes a SKILL.md and returns a path that imports as that skill', async () => {
    const res = await upload('SKILL.md', skillMd('sent-skill', 'Sent from a browser.'));
    expect(res.status).toBe(200);
    const { path: saved } = (await res.json()) as { path: string };
    expect(saved).toBe(path.join(dir, 'uploads', 'skill-sent-skill', 'sent-skill', 'SKILL.md'));
    const job = await core['jobs.wait']({ id: (await core['library.import']({ path: saved })).id });
    expect((job.result as ImportReport).added.map((s) => s.name)).toEqual(['sent-skill']);
  });

  it('refuses a missing or wrong token, another kind of file, and a body over the cap, leaving nothing behind', async () => {
    expect((await upload('SKILL.md', 'x', null)).status).toBe(401);
    expect((await upload('SKILL.md', 'x', 'wrong')).status).toBe(401);
    const exe = await upload('tool.exe', 'MZ');
    expect(exe.status).toBe(400);
    expect(((await exe.json()) as { message: string }).message).toContain('.zip of skills or a SKILL.md');
    const big = await upload('big.zip', Buffer.alloc(5000, 1));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { code: string }).code).toBe('TOO_LARGE');
    expect(
      readdirSync(path.join(dir, 'uploads')).filter((f) => f.startsWith('.') || f.startsWith('zip-')),
    ).toEqual([]);
  });

  it('is unavailable on a host started without an upload folder', async () => {
    const res = await upload('SKILL.md', 'x', bare.token, bare);
    expect(res.status).toBe(503);
    expect(existsSync(path.join(dir, 'uploads', 'skill-x'))).toBe(false);
  });
});
