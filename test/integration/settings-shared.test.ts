// Two processes on one library (the app's host and the CLI beside it): each reads the settings as the file holds them
// now, and an update merges its patch into what is stored, so neither undoes what the other set. A change to the
// model settings made elsewhere makes the host load its engines again. Two real cores on one real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import type { CuratorEvent } from '../../src/shared/events';

let dir: string;
let host: Core;
let cli: Core;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-settings-shared-'));
  const dataDir = path.join(dir, 'data');
  host = createCore({ dataDir, resourcesDir: path.resolve('resources') });
  cli = createCore({ dataDir, resourcesDir: path.resolve('resources') });
});

afterEach(async () => {
  await cli.close();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('settings shared by two processes on one library', () => {
  it('are read as stored, and an update keeps what the other one set', async () => {
    // The host has read its settings once (as the app does at start).
    expect((await host['settings.get']({})).llm.model).toBe('');
    await cli['settings.update']({
      patch: { llm: { baseURL: 'http://127.0.0.1:11500/v1', model: 'qwen3:8b' } },
    });
    expect((await host['settings.get']({})).llm).toMatchObject({
      baseURL: 'http://127.0.0.1:11500/v1',
      model: 'qwen3:8b',
    });
    // The host saves another section: the CLI's endpoint stays.
    await host['settings.update']({ patch: { import: { nameFolderMismatch: 'warning' } } });
    const seenByCli = await cli['settings.get']({});
    expect(seenByCli.llm.model).toBe('qwen3:8b');
    expect(seenByCli.import.nameFolderMismatch).toBe('warning');
    // Within a section too, only the keys patched change.
    await host['settings.update']({ patch: { llm: { temperature: 0.3 } } });
    expect((await cli['settings.get']({})).llm).toMatchObject({ model: 'qwen3:8b', temperature: 0.3 });
  });

  it('tell the host its models changed when another process set them', async () => {
    const events: CuratorEvent['type'][] = [];
    const off = host.onEvent((e) => events.push(e.type));
    try {
      await host['settings.get']({});
      await cli['settings.update']({ patch: { llm: { model: 'other' } } });
      await host['settings.get']({});
      expect(events).not.toContain('models.changed');
      await cli['settings.update']({ patch: { selection: { recallK: 12 } } });
      await host['settings.get']({});
      expect(events).not.toContain('models.changed');
      const reranker = (await cli['settings.get']({})).models.reranker;
      await cli['settings.update']({
        patch: { models: { reranker: { ...reranker, path: path.join(dir, 'elsewhere') } } },
      });
      await host['settings.get']({});
      expect(events).toContain('models.changed');
    } finally {
      off();
    }
  });
});
