// select_skills with the agent's own decomposition, over stdio as an agent starts the server, with no LLM set up: the
// whole method runs (graph, split points, stages, one why per stage), a bad parse is an error that says what to fix,
// and without a parse the answer says it ranked by relevance alone.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs, mcpLibrary, repoRoot, toolError, toolJson, type McpLibrary } from './mcp-fixture';

let lib: McpLibrary;
let client: Client;

interface Pick {
  name: string;
  why: string;
  stages: { index: number; of: number; text: string }[];
}

beforeAll(async () => {
  lib = await mcpLibrary();
  client = new Client({ name: 'agent-parse-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: cliArgs(lib.dataDir, 'mcp', '--preset', 'offline'),
      cwd: repoRoot,
      stderr: 'pipe',
    }),
  );
}, 120_000);
afterAll(async () => {
  await client?.close();
  lib?.close();
});

const select = (args: Record<string, unknown>) => client.callTool({ name: 'select_skills', arguments: args });

describe('select_skills with the calling agent’s decomposition', () => {
  it('tells the agent how to write sub-tasks and states', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'select_skills')!;
    expect(tool.description).toMatch(/`subtasks`, the m steps/);
    expect(tool.description).toMatch(/m \+ 1 short descriptions/);
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['task', 'subtasks', 'states']),
    );
  });

  it('answers "put a hot mug in the coffee machine" in stages, one why per stage, with no LLM', async () => {
    // The decomposition as an agent writes it: full sentences that say what holds after each step.
    expect(lib.task.task).toBe('put a hot mug in the coffee machine');
    const answer = toolJson(await select({ task: lib.task.task, ...lib.task.parse }));
    expect(answer.parse).toMatchObject({ by: 'you (the calling agent)' });
    expect(answer.note).toBeUndefined();
    const picks = answer.answer as Pick[];
    expect(picks.length).toBeGreaterThanOrEqual(2);
    expect(picks.map((p) => p.name)).toContain('household-heat-object-microwave');
    const stages = new Set(picks.flatMap((p) => p.stages.map((s) => s.index)));
    expect(stages.size).toBe(picks.length);
    for (const p of picks) {
      expect(p.stages.length).toBeGreaterThan(0);
      expect(p.why).toMatch(/stage/);
    }
  });

  it('without a parse or an LLM, says the answer ranks by relevance alone; with one, stages heating and cooling', async () => {
    const task = 'heat an apple and put it in the fridge';
    const plain = toolJson(await select({ task }));
    expect(plain.parse).toBeNull();
    expect(plain.note).toMatch(/ranks the skills by relevance alone .* Pass `subtasks` and `states`/);
    const staged = toolJson(
      await select({
        task,
        subtasks: [
          'Find the apple and pick it up.',
          'Heat the apple in the microwave.',
          'Put the hot apple in the fridge.',
        ],
        states: [
          'I am in the kitchen with empty hands; the apple is somewhere in the room.',
          'I am holding the apple at room temperature.',
          'I am holding the apple and it is hot.',
          'The hot apple is inside the fridge and the fridge is closed.',
        ],
      }),
    );
    expect(staged.note).toBeUndefined();
    const names = (staged.answer as Pick[]).map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['household-heat-object-microwave', 'household-cool-object-fridge']),
    );
  });

  it('refuses 3 sub-tasks with 3 states, saying what to give instead', async () => {
    const text = toolError(
      await select({
        task: 'put a hot mug in the coffee machine',
        subtasks: ['find the mug', 'heat the mug', 'put the mug in the coffee machine'],
        states: ['no mug in hand', 'the mug is hot', 'the mug is in the coffee machine'],
      }),
    );
    expect(text).toBe(
      'error INVALID_ARGUMENT: The parse has 3 sub-tasks and 3 states: give 4 states (s0 before the first ' +
        'sub-task, then one after each sub-task), or 2 sub-tasks for these states',
    );
  });

  it('refuses blank items, over-long ones and a half parse, naming each', async () => {
    const task = 'put a hot mug in the coffee machine';
    expect(toolError(await select({ task, subtasks: ['heat the mug'], states: ['cold mug', ' '] }))).toMatch(
      /State s1 of the parse is empty/,
    );
    expect(
      toolError(await select({ task, subtasks: ['x'.repeat(1200)], states: ['cold mug', 'hot mug'] })),
    ).toMatch(/Sub-task t0 of the parse is 1,200 characters; keep each sub-task and state under 1,000/);
    expect(toolError(await select({ task, subtasks: ['heat the mug'] }))).toMatch(
      /Give both subtasks and states, or neither: states is missing/,
    );
  });

  it('answers "no skill fits" for a task no skill serves, with the best candidate and the threshold', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'select_skills')!.description).toMatch(/noSkillFits: true/);
    const answer = toolJson(
      await select({ task: 'draft a toast for my sister’s wedding reception, funny but kind' }),
    );
    expect(answer.answer).toEqual([]);
    expect(answer.noSkillFits).toBe(true);
    const abstention = answer.abstention as { bestCandidate: string; bestRho: number; threshold: number };
    expect(abstention.threshold).toBe(-0.7);
    expect(abstention.bestRho).toBeLessThan(abstention.threshold);
    expect(answer.reason).toMatch(
      new RegExp(`^No skill fits: the best candidate, ${abstention.bestCandidate}, has ρ -\\d`),
    );
    // A task the library serves still gets its skills.
    const served = toolJson(await select({ task: lib.task.task, ...lib.task.parse }));
    expect(served.noSkillFits).toBeUndefined();
    expect((served.answer as Pick[]).length).toBeGreaterThan(0);
  });
});
