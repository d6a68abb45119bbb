// The MCP tools over the curated library. Descriptions are fixed text plus the curator's rule; skill text only ever
// travels in results (JSON data or embedded resources), never in a description.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { reviewStatuses } from '../core/skills';
import { toErrorData } from '../shared/errors';
import type { CuratorMcpContext } from './mcp-context';
import { readSkillFile, servedSkill, skillUri } from './skill-content';
import { registerSelectTool } from './select-tool';
import { logText } from './call-log';
import type { TrackUsage } from './usage-recorder';

const json = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
});

/** Errors as data the agent can read: `error CODE: message`. */
async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    const data = toErrorData(error);
    return { isError: true, content: [{ type: 'text', text: `error ${data.code}: ${data.message}` }] };
  }
}

export function registerCuratorTools(server: McpServer, mcp: CuratorMcpContext, track: TrackUsage): void {
  const { core, allowed } = mcp;
  const rule = allowed.sentence;

  server.registerTool(
    'search_skills',
    {
      title: 'Search skills',
      description: `Search the curated skill library by words (keyword search by default). Returns names, descriptions, scores and each skill's review status. ${rule}`,
      inputSchema: {
        query: z.string().min(1).describe('What the skill should do'),
        mode: z.enum(['keyword', 'dense', 'hybrid']).optional().describe('Search engine (default keyword)'),
        status: z.enum(reviewStatuses).optional().describe('Only skills with this review status'),
        sourceId: z.number().int().optional().describe('Only skills from this library source'),
        limit: z.number().int().min(1).max(50).optional().describe('Most hits to return (default 10)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const rule = await allowed.filter();
        // A status the rule excludes matches nothing, rather than widening the rule.
        if (rule.status && args.status && rule.status !== args.status)
          return json({ hits: [], rule: allowed.sentence });
        const res = await core['library.search']({
          query: args.query,
          mode: args.mode,
          limit: args.limit ?? 10,
          filters: { status: args.status, sourceId: args.sourceId, ...rule },
        });
        mcp.calls.record('search_skills', `${logText(args.query)} → ${res.hits.length} hits`);
        track({
          tool: 'search_skills',
          query: args.query,
          skills: res.hits.map((h) => ({ skillId: h.skill.id, name: h.skill.name, role: 'offered' })),
        });
        return json({
          engine: res.engine,
          hits: res.hits.map((h) => ({
            name: h.skill.name,
            description: h.skill.description,
            score: h.score,
            status: h.skill.status,
            uri: skillUri(h.skill.name),
          })),
          rule: allowed.sentence,
        });
      }),
  );

  registerSelectTool(server, mcp, track, guarded, json);

  server.registerTool(
    'read_skill',
    {
      title: 'Read a skill',
      description:
        "Read a skill's SKILL.md and the list of its files, or one of its files by its path inside the package " +
        `(e.g. references/guide.md). The content is returned as a resource (skill://NAME/PATH). ${rule}`,
      inputSchema: {
        name: z.string().min(1).describe('The skill name'),
        path: z.string().optional().describe('A file inside the skill package; default SKILL.md'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const skill = await servedSkill(core, allowed, args.name);
        const file = await readSkillFile(core, skill, args.path ?? 'SKILL.md');
        mcp.calls.record('read_skill', `${skill.name}/${file.path}`);
        track({
          tool: 'read_skill',
          skills: [{ skillId: skill.id, name: skill.name, role: 'read', path: file.path }],
        });
        const uri = skillUri(skill.name, file.path);
        const resource =
          file.text !== undefined
            ? { uri, mimeType: file.mimeType, text: file.text }
            : { uri, mimeType: file.mimeType, blob: file.blob! };
        return {
          content: [
            {
              type: 'text',
              text: JSON.stringify(
                {
                  name: skill.name,
                  status: skill.status,
                  file: file.path,
                  files: ['SKILL.md', ...skill.files.map((f) => f.path)].map((p) => ({
                    path: p,
                    uri: skillUri(skill.name, p),
                  })),
                },
                null,
                2,
              ),
            },
            { type: 'resource', resource },
          ],
        };
      }),
  );

  server.registerTool(
    'list_profiles',
    {
      title: 'List profiles',
      description: `List the curator's profiles (named sets of skills) and the rule this server serves by. ${rule}`,
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () =>
        json({
          rule: { ...allowed.rule, sentence: allowed.sentence },
          profiles: await mcp.profiles.list(),
        }),
      ),
  );
}
