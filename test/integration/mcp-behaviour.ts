// What an agent sees of the MCP server, whatever the transport: registered once per transport test with the SDK's own
// client. The library comes from mcp-fixture (verified sample skills, one unverified skill, one hand-typed parse).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';
import { createCore } from '../../src/core';
import { repoRoot, toolError, toolJson, unverified, type McpLibrary } from './mcp-fixture';

const sample = (...p: string[]) =>
  readFileSync(path.join(repoRoot, 'resources/sample-library', ...p), 'utf8');
const microwave = 'household-heat-object-microwave';

interface Pick {
  name: string;
  why: string;
  stages: { index: number; of: number; text: string }[];
  rank?: number;
}

export function mcpServerBehaviour(client: () => Client, lib: () => McpLibrary): void {
  it('lists the four tools, each stating the curator rule, with no skill text in any description', async () => {
    const { tools } = await client().listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'list_profiles',
      'read_skill',
      'search_skills',
      'select_skills',
    ]);
    for (const t of tools) {
      expect(t.description).toContain('only skills whose states a curator has verified');
      expect(t.description).not.toMatch(/microwave|theodolite/i);
    }
    const profiles = toolJson(await client().callTool({ name: 'list_profiles', arguments: {} }));
    expect(profiles.rule).toMatchObject({ kind: 'verified' });
  });

  it('searches only the allowed skills, with descriptions, scores and review status', async () => {
    const found = toolJson(
      await client().callTool({
        name: 'search_skills',
        arguments: { query: 'heat food microwave', limit: 5 },
      }),
    ) as { hits: { name: string; description: string; score: number; status: string }[] };
    expect(found.hits[0]).toMatchObject({ name: microwave, status: 'verified' });
    expect(found.hits[0]!.description).toMatch(/microwave/);
    expect(found.hits[0]!.score).toBeGreaterThan(0);
    const hidden = toolJson(
      await client().callTool({ name: 'search_skills', arguments: { query: unverified.word } }),
    ) as { hits: unknown[] };
    expect(hidden.hits).toEqual([]);
  });

  it('selects with the offline preset: every pick says why and which stage it serves; the run opens in the lab', async () => {
    const { task, parse } = lib().task;
    const answer = toolJson(await client().callTool({ name: 'select_skills', arguments: { task } })) as {
      runId: number;
      preset: string;
      variant: string;
      answer: Pick[];
    };
    expect(answer).toMatchObject({ preset: 'offline', variant: 'full' });
    expect(answer.answer.length).toBeGreaterThan(0);
    for (const p of answer.answer) {
      expect(p.stages.length).toBeGreaterThan(0);
      // The stage text is the hand-typed sub-tasks it spans; the sentence names it and the scores behind the pick.
      for (const s of p.stages) expect(parse.subtasks.some((t) => s.text.includes(t))).toBe(true);
      // Worded loosely enough for the lab's explainer (src/core/select/explain.ts) to replace ours.
      expect(p.why).toMatch(/stage \d+\b.*φ -?\d+\.\d{2}/);
    }

    const ranked = toolJson(
      await client().callTool({ name: 'select_skills', arguments: { task, variant: 'no-parse', k: 2 } }),
    ) as { answer: Pick[] };
    expect(ranked.answer.map((p) => p.rank)).toEqual([1, 2]);
    expect(ranked.answer[0]!.why).toMatch(/ranked #?1\b.*ρ -?\d+\.\d{2}/i);

    // The curator opens the same run in the lab (another connection to the same library file).
    const lab = createCore({ dataDir: lib().dataDir, resourcesDir: path.join(repoRoot, 'resources') });
    try {
      const run = await lab['select.get']({ runId: answer.runId });
      expect(run.via).toBe('mcp');
      expect(run.answer.map((a) => a.name)).toEqual(answer.answer.map((p) => p.name));
      // The stage each pick is said to serve is the stage it won in the stored trace.
      for (const p of answer.answer)
        for (const s of p.stages) {
          const stage = run.trace.stages[s.index]!;
          expect(run.trace.candidates[stage.winner!]!.name).toBe(p.name);
          expect(s).toEqual({ index: stage.index, of: run.trace.stages.length, text: stage.tau });
        }
      const listed = (await lab['select.runs']({ limit: 10 })).find((r) => r.runId === answer.runId);
      expect(listed).toMatchObject({ via: 'mcp', task });
    } finally {
      await lab.close();
    }
  });

  it('never selects a skill outside the rule, even for a task only it fits', async () => {
    const answer = toolJson(
      await client().callTool({
        name: 'select_skills',
        arguments: { task: unverified.task, variant: 'no-parse', k: 3 },
      }),
    ) as { answer: Pick[] };
    expect(answer.answer.map((p) => p.name)).not.toContain(unverified.name);
  });

  it('reads a skill (SKILL.md as a resource, its file list) and one of its files, by tool and by resource URI', async () => {
    const read = (await client().callTool({ name: 'read_skill', arguments: { name: microwave } })) as {
      content: (
        { type: 'text'; text: string } | { type: 'resource'; resource: { uri: string; text: string } }
      )[];
    };
    const listing = toolJson(read) as { files: { path: string }[] };
    expect(listing.files.map((f) => f.path)).toEqual(['SKILL.md', 'references/microwave-safety.md']);
    expect(read.content[1]).toMatchObject({
      type: 'resource',
      resource: { uri: `skill://${microwave}/SKILL.md`, text: sample(microwave, 'SKILL.md') },
    });

    const file = (await client().callTool({
      name: 'read_skill',
      arguments: { name: microwave, path: 'references/microwave-safety.md' },
    })) as { content: { resource?: { text: string; mimeType: string } }[] };
    expect(file.content[1]!.resource).toMatchObject({
      text: sample(microwave, 'references', 'microwave-safety.md'),
      mimeType: 'text/markdown',
    });

    const uri = `skill://${microwave}/references/microwave-safety.md`;
    const resource = await client().readResource({ uri });
    expect(resource.contents[0]).toMatchObject({
      uri,
      text: sample(microwave, 'references', 'microwave-safety.md'),
    });
    const listed = await client().listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(`skill://${microwave}/SKILL.md`);
    expect(listed.resources.map((r) => r.name)).not.toContain(unverified.name);
  });

  it('answers an unknown skill and one outside the rule alike, and refuses a path that leaves the package', async () => {
    const unknown = toolError(
      await client().callTool({ name: 'read_skill', arguments: { name: 'no-such-skill' } }),
    );
    expect(unknown).toMatch(/^error NOT_FOUND: No skill "no-such-skill" is served here\. .*verified/);
    const unserved = toolError(
      await client().callTool({ name: 'read_skill', arguments: { name: unverified.name } }),
    );
    // The same words for both: an agent cannot tell which unserved names the library holds.
    expect(unserved).toBe(unknown.replace('no-such-skill', unverified.name));
    expect(
      toolError(
        await client().callTool({
          name: 'read_skill',
          arguments: { name: microwave, path: '../household-make-coffee/SKILL.md' },
        }),
      ),
    ).toMatch(/^error INVALID_ARGUMENT: Refused path "\.\.\/household-make-coffee\/SKILL\.md"/);
    expect(
      toolError(
        await client().callTool({
          name: 'read_skill',
          arguments: { name: microwave, path: 'references/none.md' },
        }),
      ),
    ).toMatch(/has no file references\/none\.md; its files are: SKILL\.md, references\/microwave-safety\.md/);
    await expect(
      client().readResource({ uri: `skill://${unverified.name}/references/levels.md` }),
    ).rejects.toThrow(/is served here/);
  });
}
