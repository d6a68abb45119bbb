// An agent cancels a running select_skills over stdio: the selection stops in the server (its slow LLM task parse is
// abandoned and no run is stored), the call rejects, and the server answers the next calls. The server's stderr
// shows the calls agents made, for the curator.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { startOpenAiServer, type OpenAiServer } from '../fixtures/openai-server';
import { cliArgs, mcpLibrary, repoRoot, toolJson, type McpLibrary } from './mcp-fixture';

/** The LLM answers a task parse only after this long: long enough to cancel, short enough to see it arrive. */
const parseDelayMs = 2500;
const parse = [
  'Subtask 1: Find the mug.',
  'Subtask 2: Heat the mug in the microwave.',
  'State 1: A mug is somewhere in the room.',
  'State 2: The mug is held.',
  'State 3: The mug is hot.',
].join('\n');

let lib: McpLibrary;
let llm: OpenAiServer;
let client: Client;
let stderr = '';

async function runsStored(): Promise<number> {
  const core = createCore({ dataDir: lib.dataDir, resourcesDir: path.join(repoRoot, 'resources') });
  try {
    return (await core['select.runs']({ limit: 100 })).length;
  } finally {
    await core.close();
  }
}

beforeAll(async () => {
  lib = await mcpLibrary();
  llm = await startOpenAiServer({ reply: () => ({ content: parse, delayMs: parseDelayMs }) });
  const core = createCore({ dataDir: lib.dataDir, resourcesDir: path.join(repoRoot, 'resources') });
  await core['settings.update']({
    patch: { llm: { baseURL: llm.baseURL, model: 'test-model', maxRetries: 0 } },
  });
  await core.close();
  client = new Client({ name: 'mcp-cancel-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs(lib.dataDir, 'mcp', '--preset', 'offline'),
    cwd: repoRoot,
    stderr: 'pipe',
  });
  (transport.stderr as Readable).on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await llm?.close();
  lib?.close();
});

describe('cancelling select_skills over MCP', () => {
  it('stops the running selection, rejects the call, and keeps the server usable', async () => {
    const before = await runsStored();
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'select_skills', arguments: { task: 'heat a mug of water in the microwave' } },
      undefined,
      { signal: controller.signal },
    );
    const settled = call.then(
      () => 'answered',
      (error: unknown) => error,
    );
    // The selection is running: its task parse is waiting on the LLM.
    await expect.poll(() => llm.chatRequests().length, { timeout: 30_000 }).toBe(1);
    controller.abort('the agent moved on');
    const outcome = await settled;
    expect(outcome).not.toBe('answered');
    expect(String(outcome)).toMatch(/the agent moved on|abort/i);

    await expect
      .poll(() => stderr, { timeout: 10_000 })
      .toMatch(/select_skills mcp-\S+ cancelled by the client/);
    // Past the moment the LLM answers: a selection that kept running would have stored its run by now.
    await new Promise((resolve) => setTimeout(resolve, parseDelayMs + 1500));
    expect(await runsStored()).toBe(before);

    // The server still answers, and a selection run after the cancelled one is stored as usual.
    const next = toolJson(
      await client.callTool({ name: 'select_skills', arguments: { task: lib.task.task } }),
    );
    expect(next.runId).toEqual(expect.any(Number));
    expect(await runsStored()).toBe(before + 1);
    expect(llm.chatRequests()).toHaveLength(1);
  }, 90_000);

  it('logs every search and read an agent makes, with the running counts, on stderr', async () => {
    toolJson(await client.callTool({ name: 'search_skills', arguments: { query: 'coffee' } }));
    toolJson(await client.callTool({ name: 'search_skills', arguments: { query: 'microwave mug' } }));
    toolJson(await client.callTool({ name: 'read_skill', arguments: { name: 'household-make-coffee' } }));
    await expect.poll(() => stderr, { timeout: 10_000 }).toMatch(/read_skill #1/);
    const lines = stderr.split('\n').filter((l) => /^mcp \S+ (search_skills|read_skill) /.test(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /search_skills #1 "coffee" → \d+ hits \(calls so far: search 1, read 0, select 1\)/,
    );
    expect(lines[1]).toMatch(/search_skills #2 "microwave mug" → \d+ hits/);
    expect(lines[2]).toMatch(
      /read_skill #1 household-make-coffee\/SKILL\.md \(calls so far: search 2, read 1, select 1\)/,
    );
  }, 60_000);
});
