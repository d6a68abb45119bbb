// Uploading a zip again in browser mode, as the page does it over HTTP (upload, then library.import of the path it got
// back): a newer zip under the same file name, or under the name a browser gives a second download ("pack (1).zip"),
// re-imports into the source the first upload made, and its report says so; another file name is another source.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { ImportReport, SourceInfo } from '../../src/shared/api';
import type { JobInfo } from '../../src/shared/jobs';
import { startHttpHost, type HttpHost } from '../../src/server/http-host';
import { skillMd } from '../fixtures/git-skills';
import { writeZip } from '../fixtures/skills/library-fixture';

let dir: string;
let core: Core;
let host: HttpHost;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-upload-again-'));
  core = createCore({ dataDir: path.join(dir, 'data'), resourcesDir: path.resolve('resources') });
  host = await startHttpHost({ core, uploadDir: path.join(dir, 'data', 'uploads') });
});

afterAll(async () => {
  await host.close();
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call<T>(method: string, body: unknown): Promise<T> {
  const res = await fetch(`${host.url}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method}: ${JSON.stringify(answer)}`);
  return answer;
}

/** What the Import panel does with a picked file: upload it, import the path the server gives back, wait. */
async function uploadAndImport(fileName: string, skills: Record<string, string>): Promise<ImportReport> {
  const zip = path.join(dir, 'made.zip');
  await writeZip(
    zip,
    Object.entries(skills).map(([name, description]) => ({
      name: `pack/${name}/SKILL.md`,
      content: skillMd(name, description),
    })),
  );
  const res = await fetch(`${host.url}/api/upload?name=${encodeURIComponent(fileName)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${host.token}` },
    body: new Uint8Array(await readFile(zip)),
  });
  expect(res.status).toBe(200);
  const { path: saved } = (await res.json()) as { path: string };
  const started = await call<JobInfo>('library.import', { path: saved, onConflict: 'record' });
  const job = await call<JobInfo>('jobs.wait', { id: started.id });
  expect(job.status).toBe('done');
  return job.result as ImportReport;
}

const names = (list: { name: string }[]) => list.map((s) => s.name).sort();

describe('uploading a zip again', () => {
  it('re-imports a newer zip of the same name, or of the name a browser gives a second download, into the same source', async () => {
    const first = await uploadAndImport('pack.zip', { one: 'First.', two: 'Second.' });
    expect(names(first.added)).toEqual(['one', 'two']);
    expect(first.reimportOf).toBeUndefined();

    const same = await uploadAndImport('pack.zip', { one: 'First.', two: 'Second.' });
    expect(same.sourceId).toBe(first.sourceId);
    expect(names(same.unchanged)).toEqual(['one', 'two']);
    expect(same.reimportOf?.label).toBe('pack.zip');

    // Chrome saves the newer download as "pack (1).zip": the same file to the curator.
    const newer = await uploadAndImport('pack (1).zip', { one: 'First, newer.', three: 'Third.' });
    expect(newer.sourceId).toBe(first.sourceId);
    expect(names(newer.added)).toEqual(['three']);
    expect(names(newer.updated)).toEqual(['one']);
    expect(names(newer.removed)).toEqual(['two']);
    expect(newer.removedToTrash).toBe(true);
    expect(newer.reimportOf).toEqual({ label: 'pack.zip', lastImportedAt: expect.any(String) });

    // Firefox's "pack(2).zip" too.
    const firefox = await uploadAndImport('pack(2).zip', { one: 'First, newer.', three: 'Third.' });
    expect(firefox.sourceId).toBe(first.sourceId);
    expect(names(firefox.unchanged)).toEqual(['one', 'three']);

    const sources = await call<SourceInfo[]>('library.sources', {});
    expect(sources.map((s) => [s.label, s.skillCount])).toEqual([['pack.zip', 2]]);
    const two = await call<{ items: { name: string }[] }>('library.list', {});
    expect(names(two.items)).toEqual(['one', 'three']);
  });

  it('keeps a zip of another name a source of its own', async () => {
    const other = await uploadAndImport('pack-2.zip', { four: 'Fourth.' });
    expect(other.reimportOf).toBeUndefined();
    const sources = await call<SourceInfo[]>('library.sources', {});
    expect(sources.map((s) => s.label).sort()).toEqual(['pack-2.zip', 'pack.zip']);
    expect(sources.find((s) => s.label === 'pack-2.zip')?.id).toBe(other.sourceId);
  });
});
