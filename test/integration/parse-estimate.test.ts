// parse.estimate: what a parse would send and cost, before anything is sent; from plain defaults on a new library,
// from the library's own past parses once it has some (the figures the endpoint reported).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core';
import { startOpenAiServer, type OpenAiServer } from '../fixtures/openai-server';
import { insertSkill } from './llm-harness';

let dir: string;
let core: Core;
let llm: OpenAiServer;
const ids: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-estimate-'));
  core = createCore({ dataDir: dir, resourcesDir: path.resolve('resources') });
  llm = await startOpenAiServer({
    reply: () => ({
      content: 'Precondition_State: None\nCompletion_State: Done.',
      usage: { prompt_tokens: 400, completion_tokens: 30 },
    }),
  });
  core.context.db
    .prepare(
      "INSERT INTO sources (id, kind, uri, label, created_at) VALUES (1, 'folder', '/s', 's', '2026-01-01')",
    )
    .run();
  for (let i = 0; i < 8; i++)
    ids.push(
      insertSkill(core.context.db, `skill-${i}`, `# skill-${i}\n\n${'Does a careful thing. '.repeat(20)}`),
    );
  await core['settings.update']({
    patch: {
      llm: {
        baseURL: llm.baseURL,
        model: 'm',
        maxRetries: 0,
        promptPricePerMTok: 2,
        completionPricePerMTok: 8,
      },
    },
  });
});

afterAll(async () => {
  await core.close();
  await llm.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('parse.estimate', () => {
  it('counts what would be sent with default rates on a library never parsed, and sends nothing', async () => {
    const estimate = await core['parse.estimate']({});
    expect(estimate).toMatchObject({
      toSend: 8,
      kept: 0,
      cached: 0,
      basis: 'default',
      completionTokens: 8 * 120,
    });
    expect(estimate.promptTokens).toBeGreaterThan(8 * 100);
    expect(estimate.cost).toBeCloseTo((estimate.promptTokens * 2 + estimate.completionTokens * 8) / 1e6, 10);
    expect(llm.requests).toHaveLength(0);
  });

  it("uses the library's measured rates after a parse, and leaves out kept and cached skills", async () => {
    const job = await core['parse.skills']({});
    expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
    await core['states.edit']({ skillId: ids[0]!, completion: 'The curator wrote this.' });

    expect(await core['parse.estimate']({})).toMatchObject({ toSend: 0, cached: 0, kept: 0 });
    expect(await core['parse.estimate']({ only: 'all' })).toMatchObject({ toSend: 0, cached: 7, kept: 1 });
    const again = await core['parse.estimate']({ only: 'all', force: true });
    expect(again).toMatchObject({ toSend: 7, kept: 1, basis: 'library', completionTokens: 7 * 30 });
    // The skills are alike, so the measured rate gives back what the endpoint reported for each, within rounding.
    expect(again.promptTokens).toBeGreaterThanOrEqual(7 * 400 - 7);
    expect(again.promptTokens).toBeLessThanOrEqual(7 * 400 + 7);
    expect(await core['parse.estimate']({ ids: [ids[0]!], replace: true })).toMatchObject({
      toSend: 1,
      kept: 0,
    });
  });

  it('foresees what the parse job then does, scope by scope (one set of rules for both)', async () => {
    const scopes = [
      { only: 'all' as const },
      { only: 'all' as const, force: true },
      { ids: ids.slice(0, 2), replace: true },
    ];
    for (const scope of scopes) {
      const estimate = await core['parse.estimate'](scope);
      const job = await core['jobs.wait']({ id: (await core['parse.skills'](scope)).id });
      expect(job.status).toBe('done');
      const result = job.result as { parsed: number; failed: number; cached: number; protected: number };
      expect(
        { toSend: estimate.toSend, kept: estimate.kept, cached: estimate.cached },
        JSON.stringify(scope),
      ).toEqual({
        toSend: result.parsed + result.failed,
        kept: result.protected,
        cached: result.cached,
      });
    }
  });

  it('refuses what parse.skills refuses', async () => {
    await expect(core['parse.estimate']({ replace: true })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
