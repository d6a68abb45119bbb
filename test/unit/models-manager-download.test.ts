// The model downloader against a loopback server that imitates the hub (tree API + resolve URLs with Range).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadModel, type DownloadProgress } from '../../src/core/models/manager/download';

const repo = 'onnx-community/Qwen3-Embedding-0.6B-ONNX';
const weights = Buffer.alloc(3 * 1024 * 1024 + 123);
for (let i = 0; i < weights.length; i++) weights[i] = (i * 2654435761) >>> 24;
const files: Record<string, Buffer> = {
  'config.json': Buffer.from('{"model_type":"qwen3"}'),
  'tokenizer.json': Buffer.from('{"model":{}}'),
  'tokenizer_config.json': Buffer.from('{}'),
  'onnx/model_quantized.onnx': weights,
  'onnx/model_fp16.onnx': Buffer.from('other dtype, never fetched for q8'),
  'README.md': Buffer.from('# readme'),
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Behaviour {
  /** Cut the connection after this many bytes of the weights file, once. */
  cutAfter?: number;
  ignoreRange?: boolean;
  corrupt?: boolean;
  /** Hold the weights response after the first chunk until released. */
  stall?: boolean;
}
let behaviour: Behaviour = {};
const requests: { url: string; range?: string }[] = [];
let server: http.Server;
let baseUrl = '';
const work = mkdtempSync(path.join(os.tmpdir(), 'download-'));

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '');
    requests.push({ url, range: req.headers.range });
    if (url === `/api/models/${repo}/tree/main?recursive=true`) {
      const tree = Object.entries(files).map(([p, b]) => ({
        type: 'file',
        path: p,
        size: p.endsWith('.onnx') ? 134 : b.length,
        ...(p.endsWith('.onnx') ? { lfs: { oid: sha(b), size: b.length } } : {}),
      }));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify([{ type: 'directory', path: 'onnx' }, ...tree]));
      return;
    }
    const prefix = `/${repo}/resolve/main/`;
    const body = url.startsWith(prefix) ? files[url.slice(prefix.length)] : undefined;
    if (!body) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    let data = behaviour.corrupt && body === weights ? Buffer.from(body).fill(7, 10, 20) : body;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range && !behaviour.ignoreRange) {
      const start = Number(range[1]);
      if (start >= data.length) {
        res.statusCode = 416;
        res.end();
        return;
      }
      res.statusCode = 206;
      res.setHeader('content-range', `bytes ${start}-${data.length - 1}/${data.length}`);
      data = data.subarray(start);
    }
    res.setHeader('content-length', data.length);
    if (body === weights && behaviour.cutAfter !== undefined) {
      const cut = behaviour.cutAfter;
      behaviour = {};
      res.write(data.subarray(0, cut), () => res.destroy());
      return;
    }
    if (body === weights && behaviour.stall) {
      res.write(data.subarray(0, 64 * 1024)); // then nothing: the client cancels
      return;
    }
    res.end(data);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  rmSync(work, { recursive: true, force: true });
});

describe('downloadModel', () => {
  it('fetches the files one dtype needs with progress, then skips them when complete', async () => {
    const dest = path.join(work, 'full');
    const progress: DownloadProgress[] = [];
    const result = await downloadModel({
      repo,
      dtype: 'q8',
      dest,
      baseUrl,
      onProgress: (p) => progress.push(p),
    });
    expect(result.files.map((f) => f.path).sort()).toEqual([
      'config.json',
      'onnx/model_quantized.onnx',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
    expect(readFileSync(path.join(dest, 'onnx/model_quantized.onnx')).equals(weights)).toBe(true);
    expect(existsSync(path.join(dest, 'onnx/model_fp16.onnx'))).toBe(false);
    const last = progress.at(-1)!;
    expect(last.bytes).toBe(last.total);
    expect(progress.filter((p) => p.file === 'onnx/model_quantized.onnx').length).toBeGreaterThan(2);
    expect(progress.map((p) => p.bytes)).toEqual([...progress.map((p) => p.bytes)].sort((a, b) => a - b));

    const again = await downloadModel({ repo, dtype: 'q8', dest, baseUrl });
    expect(again.files.every((f) => f.skipped)).toBe(true);
  });

  it('resumes an interrupted file from its .part with an HTTP Range request', async () => {
    const dest = path.join(work, 'resume');
    behaviour = { cutAfter: 1_000_000 };
    await expect(downloadModel({ repo, dtype: 'q8', dest, baseUrl })).rejects.toMatchObject({
      code: 'ENDPOINT_UNREACHABLE',
      message: expect.stringMatching(/resumes next time/),
    });
    const part = path.join(dest, 'onnx/model_quantized.onnx.part');
    const kept = statSync(part).size;
    expect(kept).toBeGreaterThan(0);
    requests.length = 0;
    const result = await downloadModel({ repo, dtype: 'q8', dest, baseUrl });
    expect(requests.find((r) => r.url.endsWith('model_quantized.onnx'))?.range).toBe(`bytes=${kept}-`);
    expect(result.files.find((f) => f.path === 'onnx/model_quantized.onnx')?.resumedFrom).toBe(kept);
    expect(readFileSync(path.join(dest, 'onnx/model_quantized.onnx')).equals(weights)).toBe(true);
    expect(existsSync(part)).toBe(false);
  });

  it('starts over when the server ignores the range', async () => {
    const dest = path.join(work, 'norange');
    behaviour = { cutAfter: 500_000 };
    await expect(downloadModel({ repo, dtype: 'q8', dest, baseUrl })).rejects.toThrow();
    behaviour = { ignoreRange: true };
    await downloadModel({ repo, dtype: 'q8', dest, baseUrl });
    behaviour = {};
    expect(readFileSync(path.join(dest, 'onnx/model_quantized.onnx')).equals(weights)).toBe(true);
  });

  it('removes a file whose sha256 does not match', async () => {
    const dest = path.join(work, 'corrupt');
    behaviour = { corrupt: true };
    await expect(downloadModel({ repo, dtype: 'q8', dest, baseUrl })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    behaviour = {};
    expect(existsSync(path.join(dest, 'onnx/model_quantized.onnx'))).toBe(false);
    expect(existsSync(path.join(dest, 'onnx/model_quantized.onnx.part'))).toBe(false);
  });

  it('stops when cancelled and keeps the partial file for later', async () => {
    const dest = path.join(work, 'cancel');
    behaviour = { stall: true };
    const controller = new AbortController();
    const run = downloadModel({
      repo,
      dtype: 'q8',
      dest,
      baseUrl,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.file === 'onnx/model_quantized.onnx' && p.fileBytes === 0)
          setTimeout(() => controller.abort(), 50);
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    behaviour = {};
    expect(statSync(path.join(dest, 'onnx/model_quantized.onnx.part')).size).toBeGreaterThan(0);
  });

  it('says which files a repository lacks for a dtype', async () => {
    await expect(
      downloadModel({ repo, dtype: 'q4', dest: path.join(work, 'q4'), baseUrl }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `${repo} has no onnx/model_q4.onnx (dtype q4)`,
    });
  });
});
