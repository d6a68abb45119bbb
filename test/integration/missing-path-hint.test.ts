// A path typed wrong is said the same way wherever a path is typed (import, states file in or out, label file):
// NOT_FOUND naming the path, with the advice to check it, not the advice for a record removed meanwhile.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';

let dir: string;
let core: Core;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-missing-path-'));
  core = createCore({ dataDir: dir, resourcesDir: path.resolve('resources') });
});
afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a path that does not exist', () => {
  const missing = '/no/such/place.jsonl';
  const calls = {
    'library.import': () => core['library.import']({ path: missing }),
    'states.import': () => core['states.import']({ path: missing }),
    'labels.import': () => core['labels.import']({ path: missing }),
    'states.export': () => core['states.export']({ path: missing }),
  };
  for (const [method, call] of Object.entries(calls))
    it(`${method} names it and says to check it`, async () => {
      await expect(call()).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringContaining(missing),
        details: { path: missing, hint: expect.stringContaining('Check the path') },
      });
    });
});
