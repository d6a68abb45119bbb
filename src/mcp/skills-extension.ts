// The MCP Skills extension (SEP-2640, io.modelcontextprotocol/skills): skills/list, skills/get and
// resources/directory/read over the served skills, so a standard agent host finds them. The files themselves are read
// with resources/read (resources.ts), under the same URIs and the same rule.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CuratorError } from '../shared/errors';
import type { CuratorMcpContext } from './mcp-context';
import { skillCatalog, skillEntry, type SkillCatalog } from './skill-catalog';
import { mimeTypeOf } from './skill-content';
import { skillFileUri } from './skill-uris';
import type { TrackUsage } from './usage-recorder';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Entries per skills/list page: each one is a full manifest. */
const pageSize = 100;
/** How long a host may treat a listing or an entry as current. */
const cacheHint = { ttlMs: 60_000, cacheScope: 'private' as const };

const listRequest = z.object({
  method: z.literal('skills/list'),
  params: z.object({ cursor: z.string().optional() }).passthrough().optional(),
});
const getRequest = z.object({
  method: z.literal('skills/get'),
  params: z.object({ uri: z.string() }).passthrough(),
});
const directoryRequest = z.object({
  method: z.literal('resources/directory/read'),
  params: z.object({ uri: z.string(), cursor: z.string().optional() }).passthrough(),
});

/**
 * -32602 (Invalid params) with the message as written: McpError would put "MCP error -32602:" into the message, and
 * the client adds that prefix again.
 */
const invalidParams = (message: string): Error =>
  Object.assign(new Error(message), { code: ErrorCode.InvalidParams });

/** A refusal in the extension's words: -32602 for anything the server does not serve. */
export function asProtocolError(error: unknown): unknown {
  if (error instanceof CuratorError && (error.code === 'INVALID_ARGUMENT' || error.code === 'NOT_FOUND'))
    return invalidParams(error.message);
  return error;
}

function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = Number(/^o(\d{1,9})$/.exec(cursor)?.[1]);
  if (!Number.isSafeInteger(offset))
    throw invalidParams(`The cursor "${cursor}" is not one this server gave`);
  return offset;
}

/** The direct children of a folder of a skill: its files, and its sub-folders as directory resources. */
async function directoryChildren(catalog: SkillCatalog, uri: string) {
  const { detail, place, path } = await catalog.resolve(uri);
  const isText = new Map([['SKILL.md', true], ...detail.files.map((f) => [f.path, f.isText] as const)]);
  const files = [...isText.keys()];
  if (files.includes(path)) throw invalidParams(`${uri} is not a directory resource`);
  const below =
    path === '' ? files : files.filter((f) => f.startsWith(`${path}/`)).map((f) => f.slice(path.length + 1));
  if (below.length === 0) throw invalidParams(`No directory is served at ${uri}`);
  const children = new Map<string, { uri: string; name: string; mimeType: string }>();
  for (const rest of below) {
    const [head, ...more] = rest.split('/');
    const child = path === '' ? head! : `${path}/${head}`;
    if (children.has(head!)) continue;
    children.set(
      head!,
      more.length > 0
        ? { uri: skillFileUri(place, child), name: head!, mimeType: 'inode/directory' }
        : { uri: skillFileUri(place, child), name: head!, mimeType: mimeTypeOf(child, isText.get(child)!) },
    );
  }
  return [...children.values()];
}

export function registerSkillsExtension(server: McpServer, mcp: CuratorMcpContext, track: TrackUsage): void {
  const catalog = skillCatalog(mcp.core, mcp.allowed);
  server.server.registerCapabilities({ extensions: { [SKILLS_EXTENSION]: { directoryRead: true } } });

  server.server.setRequestHandler(listRequest, async (request) => {
    const offset = offsetOf(request.params?.cursor);
    const { entries, next } = await catalog.page(offset, pageSize);
    // A host lists every page at start: one call per listing, not per page, and no skill counts as offered by it.
    if (offset === 0) track({ tool: 'skills/list', skills: [] });
    return {
      resultType: 'complete',
      skills: entries,
      ...(next !== null ? { nextCursor: `o${next}` } : {}),
      ...cacheHint,
    };
  });

  server.server.setRequestHandler(getRequest, async (request) => {
    try {
      const resolved = await catalog.resolve(request.params.uri);
      if (resolved.path !== 'SKILL.md')
        throw invalidParams(`Give the URI of a skill's SKILL.md, not ${request.params.uri}`);
      track({
        tool: 'skills/get',
        skills: [{ skillId: resolved.detail.id, name: resolved.detail.name, role: 'offered' }],
      });
      return { resultType: 'complete', skill: skillEntry(resolved.detail, resolved.place), ...cacheHint };
    } catch (error) {
      throw asProtocolError(error);
    }
  });

  server.server.setRequestHandler(directoryRequest, async (request) => {
    try {
      return { resultType: 'complete', resources: await directoryChildren(catalog, request.params.uri) };
    } catch (error) {
      throw asProtocolError(error);
    }
  });
}
