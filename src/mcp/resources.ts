// Skill packages as MCP resources: skill://NAME/SKILL.md and skill://NAME/PATH for each file under it, and
// skill://SOURCE.ID/NAME/… for a name several served skills share (skill-uris.ts). Only the skills the curator's rule
// serves are listed or read; skill://NAME/… of a shared name reads the newest, as read_skill does.
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CuratorError } from '../shared/errors';
import type { CuratorMcpContext } from './mcp-context';
import { skillCatalog } from './skill-catalog';
import { readSkillFile, servedSkill, skillUri } from './skill-content';
import { asProtocolError } from './skills-extension';
import { parseSkillUri } from './skill-uris';
import type { TrackUsage } from './usage-recorder';

/** Resource listings stop here; agents find the rest through search_skills. */
const LISTED_SKILLS = 500;

function variable(value: string | string[] | undefined, what: string): string {
  const raw = Array.isArray(value) ? value.join(',') : value;
  if (!raw) throw new CuratorError('INVALID_ARGUMENT', `The resource URI has no ${what}`);
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new CuratorError('INVALID_ARGUMENT', `The resource URI's ${what} is not valid percent-encoding`);
  }
}

export function registerSkillResources(server: McpServer, mcp: CuratorMcpContext, track: TrackUsage): void {
  const { core, allowed } = mcp;
  const catalog = skillCatalog(core, allowed);
  server.registerResource(
    'skill-package',
    new ResourceTemplate('skill://{name}/{+path}', {
      list: async () => {
        const page = await core['library.list']({ ...(await allowed.filter()), limit: LISTED_SKILLS });
        return {
          resources: page.items.map((s) => ({
            uri: skillUri(s.name),
            name: s.name,
            mimeType: 'text/markdown',
          })),
        };
      },
    }),
    {
      title: 'Skill package files',
      description: `SKILL.md and the files of a skill package. ${allowed.sentence}`,
    },
    async (uri, variables) => {
      const { skill, file } = await (async () => {
        if (parseSkillUri(uri.href)?.id) {
          const { detail, path } = await catalog.resolve(uri.href);
          return { skill: detail, file: await readSkillFile(core, detail, path) };
        }
        const skill = await servedSkill(core, allowed, variable(variables.name, 'skill name'));
        return { skill, file: await readSkillFile(core, skill, variable(variables.path, 'file path')) };
      })().catch((error: unknown) => {
        throw asProtocolError(error);
      });
      track({
        tool: 'resources/read',
        skills: [{ skillId: skill.id, name: skill.name, role: 'read', path: file.path }],
      });
      return {
        contents: [
          file.text !== undefined
            ? { uri: uri.href, mimeType: file.mimeType, text: file.text }
            : { uri: uri.href, mimeType: file.mimeType, blob: file.blob! },
        ],
      };
    },
  );
}
