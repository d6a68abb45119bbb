// zod, loaded when the core builds its first schema rather than with the core: the host answers its first calls, and
// the CLI runs most commands, without it. Schemas are built synchronously (a settings read), hence a require of zod's
// CommonJS build. The core's schemas stay among themselves: the browser UI, the MCP tools and scripts build theirs
// with zod's ES build (shared/settings.ts), and only plain values and issue messages pass between the two.
import { createRequire } from 'node:module';
import type { z } from 'zod';
import { lazy } from '../shared/lazy';

export type Zod = typeof z;

const zod = lazy(() => (createRequire(import.meta.url)('zod') as { z: Zod }).z);

/** A schema built at its first use, with zod loaded then. */
export function schema<T>(build: (z: Zod) => T): () => T {
  return lazy(() => build(zod()));
}
