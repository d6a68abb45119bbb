// The yaml package, loaded at the first front matter read or written rather than with the core, so the host answers
// its first calls without it. Reading front matter is synchronous, hence a require: for Node, yaml ships one CommonJS
// build, the very module an import of 'yaml' would load.
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { lazy } from '../../shared/lazy';

export const yamlModule = lazy(() => createRequire(import.meta.url)('yaml') as typeof Yaml);
