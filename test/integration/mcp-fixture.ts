// A library for the MCP server tests, built through the core: the sample library with its reviewed (verified) states,
// one extra skill nobody verified (outside the default rule), and a hand-typed parse of the first sample task so
// select_skills runs the whole method with the offline preset and no LLM.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { createCore } from '../../src/core';
import { saveManualTaskParse } from '../../src/core/llm/parse-task';
import { createProfile } from '../../src/core/profiles';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
const resources = path.join(repoRoot, 'resources');

/** The unverified skill: its words appear in no sample skill. */
export const unverified = {
  name: 'zz-calibrate-theodolite',
  word: 'theodolite',
  task: 'calibrate the theodolite on the tripod',
};

/** A profile of two skills: the unverified one and one verified sample skill. */
export const profile = { name: 'surveying', skills: [unverified.name, 'household-make-coffee'] };

export interface McpLibrary {
  dataDir: string;
  task: { task: string; parse: { subtasks: string[]; states: string[] } };
  close(): void;
}

export async function mcpLibrary(): Promise<McpLibrary> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'curator-mcp-'));
  const extra = path.join(dataDir, 'extra', unverified.name);
  mkdirSync(path.join(extra, 'references'), { recursive: true });
  writeFileSync(
    path.join(extra, 'SKILL.md'),
    `---\nname: ${unverified.name}\ndescription: Calibrate a surveying theodolite on its tripod before measuring angles.\n---\n\n# Calibrate a theodolite\n\nLevel the theodolite, then check the collimation.\n`,
  );
  writeFileSync(path.join(extra, 'references', 'levels.md'), 'Bubble levels of a theodolite.\n');
  const core = createCore({ dataDir, resourcesDir: resources });
  try {
    for (const source of [path.join(resources, 'sample-library'), path.dirname(extra)]) {
      const job = await core['library.import']({ path: source });
      expect((await core['jobs.wait']({ id: job.id })).status).toBe('done');
    }
    await core['states.import']({ path: path.join(resources, 'sample-states.jsonl'), verify: true });
    const line = readFileSync(path.join(resources, 'sample-tasks.jsonl'), 'utf8').split('\n')[0]!;
    const task = JSON.parse(line) as McpLibrary['task'];
    saveManualTaskParse({ db: core.context.db, clock: () => new Date() }, { task: task.task, ...task.parse });
    expect((await core['library.get']({ name: unverified.name })).status).not.toBe('verified');
    const ids = await Promise.all(
      profile.skills.map(async (name) => (await core['library.get']({ name })).id),
    );
    createProfile(core.context, { name: profile.name, skillIds: ids });
    return { dataDir, task, close: () => rmSync(dataDir, { recursive: true, force: true }) };
  } finally {
    await core.close();
  }
}

/** The CLI as an agent starts it (the same command line the docs give, through tsx). */
export function cliArgs(dataDir: string, ...args: string[]): string[] {
  return ['--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), '--data', dataDir, ...args];
}

/** The JSON a tool answered, or the failure when it answered an error. */
export function toolJson(result: unknown): Record<string, unknown> {
  const r = result as { isError?: boolean; content: { type: string; text?: string }[] };
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return JSON.parse(r.content[0]!.text!) as Record<string, unknown>;
}

export function toolError(result: unknown): string {
  const r = result as { isError?: boolean; content: { type: string; text?: string }[] };
  expect(r.isError).toBe(true);
  return r.content[0]!.text!;
}

/**
 * `skill-curator mcp --http ARGS` started as a curator starts it, and an SDK client connected with the token it
 * printed; `close` closes the client and stops the server.
 */
export async function httpMcpClient(
  dataDir: string,
  clientInfo: { name: string; version: string },
  ...args: string[]
): Promise<{ client: Client; close: () => Promise<void> }> {
  const child = spawn(process.execPath, cliArgs(dataDir, 'mcp', '--http', ...args), {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const { url, token } = await new Promise<{ url: URL; token: string }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const endpoint = /MCP \(Streamable HTTP\) on (\S+)/.exec(out)?.[1];
        const key = /Token: (\S+)/.exec(out)?.[1];
        if (endpoint && key) resolve({ url: new URL(endpoint), token: key });
      });
      child.on('exit', (code) => reject(new Error(`mcp --http exited ${code}`)));
    });
    const client = new Client(clientInfo);
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    return {
      client,
      close: async () => {
        await client.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
