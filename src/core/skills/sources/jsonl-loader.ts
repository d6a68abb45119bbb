// Loads the lines of a large JSONL dump in a worker thread, so building skills (JSON, YAML, validation, hashing)
// overlaps the importer's writes on another core. Should the worker not start or stop early, its lines (and every
// later one) load on this thread instead: the import gives the same skills either way, only slower.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { adoptPacked, type PackedElsewhere } from '../../store/text-packing';
import type { BuildResult } from '../skill-md';
import type { ImportSettings } from '../types';
import type { LineAt } from './jsonl-skill';

export interface LoadWorkerData {
  /** The dump's descriptor, opened by the importer's thread (threads share it): every read is of the same file. */
  fd: number;
  base: string;
  limits: ImportSettings;
}

export type LineRequest = LineAt & { id: number };
/**
 * A line's skill, with its full text already packed (text-packing.ts) where packing applies. A body that ends the full
 * text comes as `bodyFrom` (where it starts) and the importer's thread takes it as a slice of the full text, which V8
 * keeps without a copy: the texts in flight between the threads take half the space.
 */
export type LineReply =
  | { id: number; result: BuildResult; packed: PackedElsewhere | null; bodyFrom?: number }
  | { id: number; error: string };

interface Pending {
  at: LineAt;
  resolve(result: BuildResult): void;
  reject(error: Error): void;
}

let devScript: URL | undefined;

/**
 * The worker's script: the compiled one beside a build (scripts/build-cli.mjs, electron.vite.config.ts). Run from the
 * TypeScript sources (development, tests, benches), the worker is compiled here once per process with esbuild (a
 * development dependency) the way the build compiles it, so it runs without tsx's loader thread and per-file
 * transforms, as it does in a build.
 */
function workerEntry(): URL | null {
  if (import.meta.url.endsWith('.ts')) {
    if (!devScript) {
      const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
      const { outputFiles } = esbuild.buildSync({
        entryPoints: [fileURLToPath(new URL('./jsonl-load-worker.ts', import.meta.url))],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        logLevel: 'silent',
        // Bundled CommonJS packages require Node's modules: give the script a require of its own (under a name that
        // no bundled module's own import of createRequire clashes with).
        banner: {
          js: `import { createRequire as createBannerRequire } from 'node:module'; const require = createBannerRequire(${JSON.stringify(fileURLToPath(import.meta.url))});`,
        },
        // The script runs from a data: URL; a module that requires a package when first used (yaml) resolves it here.
        define: { 'import.meta.url': JSON.stringify(import.meta.url) },
      });
      const code = Buffer.from(outputFiles[0]!.text).toString('base64');
      devScript = new URL(`data:text/javascript;base64,${code}`);
    }
    return devScript;
  }
  for (const name of ['./jsonl-load-worker.mjs', './jsonl-load-worker.js']) {
    const url = new URL(name, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

export class WorkerLineLoader {
  private worker: Worker | null = null;
  /** Set once a worker was started or could not be: a re-import whose lines are all unchanged never starts one. */
  private tried = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(
    private readonly data: LoadWorkerData,
    /** Loads one line on this thread: what the worker's lines fall back to. */
    private readonly here: (at: LineAt) => Promise<BuildResult>,
  ) {}

  /** Whether lines go to a worker: until it failed, or could not start. */
  get threaded(): boolean {
    return !this.tried || this.worker !== null;
  }

  private start(): void {
    this.tried = true;
    try {
      const entry = workerEntry();
      if (!entry) return;
      const worker = new Worker(entry, {
        workerData: this.data,
        // A line's garbage is short-lived: small generations keep the worker's heap (and the RSS) small. A line too
        // large for them ends the worker, and its lines load on this thread.
        resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 32 },
      });
      worker.on('message', (reply: LineReply) => this.settle(reply));
      worker.on('error', () => this.fallBack());
      worker.on('exit', () => this.fallBack());
      // Kept alive only while it owes lines: a source left open never holds the process.
      worker.unref();
      this.worker = worker;
    } catch {
      this.worker = null;
    }
  }

  load(at: LineAt): Promise<BuildResult> {
    if (!this.tried) this.start();
    if (!this.worker) return this.here(at);
    const id = this.nextId++;
    return new Promise<BuildResult>((resolve, reject) => {
      if (this.pending.size === 0) this.worker!.ref();
      this.pending.set(id, { at, resolve, reject });
      const { relPath, line, offset, length } = at;
      this.worker!.postMessage({ id, relPath, line, offset, length } satisfies LineRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) {
      worker.removeAllListeners('exit');
      await worker.terminate();
    }
    for (const p of this.pending.values()) p.reject(new Error('the import closed its source'));
    this.pending.clear();
  }

  private settle(reply: LineReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('error' in reply) return p.reject(new Error(reply.error));
    const { result, packed, bodyFrom } = reply;
    if (result.ok && bodyFrom !== undefined) result.skill.body = result.skill.fullText.slice(bodyFrom);
    if (result.ok && packed) adoptPacked(result.skill, result.skill.fullText, packed);
    p.resolve(result);
  }

  /** The worker failed or ended: what it still owed, and every later line, loads on this thread. */
  private fallBack(): void {
    if (!this.worker) return;
    this.worker = null;
    for (const p of this.pending.values()) this.here(p.at).then(p.resolve, p.reject);
    this.pending.clear();
  }
}
