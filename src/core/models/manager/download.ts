// Downloads a model repository's files from the Hugging Face hub (or a mirror) into a folder: per-file progress,
// resume of interrupted files via HTTP Range on `.part` files, size and sha256 checks, cancellable.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { CuratorError } from '../../../shared/errors';
import { errorText } from '../onnx/load-model';
import { filesForDtype, type HubFile } from './catalog';
import type { OnnxDtype } from './dtype-device';

export const HF_HUB_URL = 'https://huggingface.co';
const PROGRESS_STEP_BYTES = 1 << 20;

export interface DownloadProgress {
  file: string;
  fileIndex: number;
  fileCount: number;
  fileBytes: number;
  fileTotal: number;
  bytes: number;
  total: number;
}

export interface DownloadOptions {
  repo: string;
  dtype: OnnxDtype;
  /** The model folder to fill (created if needed). */
  dest: string;
  baseUrl?: string;
  revision?: string;
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  fetch?: typeof fetch;
}

export interface DownloadResult {
  dest: string;
  files: { path: string; bytes: number; skipped: boolean; resumedFrom: number }[];
}

interface TreeEntry {
  type: string;
  path: string;
  size?: number;
  lfs?: { oid?: string; size?: number };
}

function hubError(message: string, details?: unknown): CuratorError {
  return new CuratorError('ENDPOINT_UNREACHABLE', message, details);
}

/** Lists a repository's files with sizes (the hub's tree API). */
export async function listHubFiles(
  repo: string,
  options: { baseUrl?: string; revision?: string; signal?: AbortSignal; fetch?: typeof fetch } = {},
): Promise<HubFile[]> {
  const base = options.baseUrl ?? HF_HUB_URL;
  const url = `${base}/api/models/${repo}/tree/${encodeURIComponent(options.revision ?? 'main')}?recursive=true`;
  const res = await (options.fetch ?? fetch)(url, { signal: options.signal }).catch((error: unknown) => {
    throw hubError(`Cannot reach ${base}: ${errorText(error)}`, { url });
  });
  if (!res.ok) throw hubError(`${url} answered ${res.status} ${res.statusText}`, { url, status: res.status });
  const entries = (await res.json()) as TreeEntry[];
  return entries
    .filter((e) => e.type === 'file')
    .map((e) => ({
      path: e.path,
      size: e.lfs?.size ?? e.size ?? 0,
      ...(e.lfs?.oid ? { sha256: e.lfs.oid } : {}),
    }));
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

const sizeOf = (file: string) =>
  stat(file).then(
    (s) => s.size,
    () => -1,
  );

/** Downloads what one dtype needs; files already complete are skipped, `.part` files continue where they stopped. */
export async function downloadModel(options: DownloadOptions): Promise<DownloadResult> {
  const base = options.baseUrl ?? HF_HUB_URL;
  const revision = options.revision ?? 'main';
  const doFetch = options.fetch ?? fetch;
  const tree = await listHubFiles(options.repo, { ...options, baseUrl: base, revision, fetch: doFetch });
  const { files, missing } = filesForDtype(tree, options.dtype);
  if (missing.length) {
    throw new CuratorError(
      'NOT_FOUND',
      `${options.repo} has no ${missing.join(', ')} (dtype ${options.dtype})`,
      {
        repo: options.repo,
        missing,
      },
    );
  }
  const total = files.reduce((n, f) => n + f.size, 0);
  let doneBefore = 0;
  const result: DownloadResult = { dest: path.resolve(options.dest), files: [] };
  for (const [fileIndex, file] of files.entries()) {
    const target = path.join(result.dest, ...file.path.split('/'));
    if (!target.startsWith(result.dest + path.sep))
      throw new CuratorError('UNSAFE_INPUT', `bad path ${file.path}`);
    const report = (fileBytes: number) =>
      options.onProgress?.({
        file: file.path,
        fileIndex,
        fileCount: files.length,
        fileBytes,
        fileTotal: file.size,
        bytes: doneBefore + fileBytes,
        total,
      });
    report(0);
    if ((await sizeOf(target)) === file.size) {
      result.files.push({ path: file.path, bytes: file.size, skipped: true, resumedFrom: 0 });
    } else {
      const resumedFrom = await fetchFile(
        `${base}/${options.repo}/resolve/${encodeURIComponent(revision)}/${file.path}`,
        file,
        target,
        {
          fetch: doFetch,
          signal: options.signal,
          report,
        },
      );
      result.files.push({ path: file.path, bytes: file.size, skipped: false, resumedFrom });
    }
    report(file.size);
    doneBefore += file.size;
  }
  return result;
}

async function fetchFile(
  url: string,
  file: HubFile,
  target: string,
  io: { fetch: typeof fetch; signal?: AbortSignal; report: (bytes: number) => void },
): Promise<number> {
  const part = `${target}.part`;
  await mkdir(path.dirname(target), { recursive: true });
  let have = Math.max(0, await sizeOf(part));
  if (have > file.size) {
    await truncate(part, 0);
    have = 0;
  }
  const resumedFrom = have;
  if (have < file.size || file.size === 0) {
    const headers: Record<string, string> = have > 0 ? { Range: `bytes=${have}-` } : {};
    const res = await io
      .fetch(url, { headers, signal: io.signal, redirect: 'follow' })
      .catch((error: unknown) => {
        if (io.signal?.aborted)
          throw new CuratorError('CANCELLED', 'Download cancelled', { file: file.path });
        throw hubError(`Cannot download ${file.path}: ${errorText(error)}`, { url });
      });
    if (res.status === 416 && have > 0) {
      // The server says the range starts at the end: the .part file is already whole; the checks below confirm.
    } else if (!res.ok || !res.body) {
      throw hubError(`${url} answered ${res.status} ${res.statusText}`, { url, status: res.status });
    } else {
      const append = res.status === 206;
      if (!append) have = 0; // the server ignored the range: start over
      let written = have;
      let reported = have;
      const counter = new TransformCounter((n) => {
        written += n;
        if (written - reported >= PROGRESS_STEP_BYTES) {
          reported = written;
          io.report(written);
        }
      });
      const out = createWriteStream(part, { flags: append ? 'a' : 'w' });
      try {
        await pipeline(Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>), counter, out, {
          signal: io.signal,
        });
      } catch (error) {
        // pipeline settles before the file's last writes land: a resume started at once would read a .part that
        // still grows, and append after bytes it did not count.
        if (!out.closed) await new Promise<void>((closed) => out.once('close', () => closed()));
        if (io.signal?.aborted)
          throw new CuratorError('CANCELLED', 'Download cancelled; it resumes next time', {
            file: file.path,
          });
        throw hubError(
          `Download of ${file.path} broke off after ${written} bytes; it resumes next time: ${errorText(error)}`,
          {
            url,
            bytes: written,
          },
        );
      }
    }
  }
  const size = await sizeOf(part);
  if (size !== file.size) {
    throw hubError(`${file.path} has ${size} of ${file.size} bytes; it resumes next time`, {
      file: file.path,
      size,
    });
  }
  if (file.sha256 && (await sha256Of(part)) !== file.sha256) {
    await rm(part, { force: true });
    throw new CuratorError(
      'VALIDATION_FAILED',
      `${file.path} does not match its sha256; removed, download it again`,
      {
        file: file.path,
      },
    );
  }
  await rename(part, target);
  return resumedFrom;
}

class TransformCounter extends Transform {
  constructor(private readonly onBytes: (n: number) => void) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.onBytes(chunk.length);
    done(null, chunk);
  }
}
