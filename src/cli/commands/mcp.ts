// CLI `mcp`: serve the curated library to agents over the Model Context Protocol, on stdio (the agent starts this
// command) or Streamable HTTP on 127.0.0.1 with a token. stdout carries only MCP messages on stdio; notes go to stderr.
import type { Command } from 'commander';
import { Option } from 'commander';
import type { CuratorApi, SelectionPreset } from '../../shared/api';
import { selectionPresets } from '../../shared/api';
import { printLine, terminalSafe } from '../output';
import { portOption } from '../number-options';
import { withCore } from '../run-command';

interface McpOptions {
  preset?: SelectionPreset;
  profile?: string;
  allow?: string;
  http?: boolean;
  port: number;
  token?: string;
}

/** Resolves on SIGINT/SIGTERM, or when the agent closes our stdin (stdio mode). */
function stopped(watchStdin: boolean): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    if (watchStdin) {
      process.stdin.once('end', () => resolve());
      process.stdin.once('close', () => resolve());
    }
  });
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the curated library to agents over MCP (stdio, or --http on 127.0.0.1 with a token)')
    .addOption(
      new Option('--preset <preset>', 'which engines select_skills scores with (default: Settings)').choices([
        ...selectionPresets,
      ]),
    )
    .addOption(
      new Option('--allow <rule>', 'which skills are served: all, or verified only (default)').choices([
        'all',
        'verified',
      ]),
    )
    .option('--profile <name>', "serve only this profile's skills")
    .option('--http', 'Streamable HTTP on 127.0.0.1 instead of stdio')
    .option('--port <port>', 'port for --http (0 = any free one)', portOption, 0)
    .option(
      '--token <token>',
      'for --http: use this token instead of a random one (default $SKILL_CURATOR_MCP_TOKEN)',
    )
    .action(
      withCore(async (core, _g, opts: McpOptions) => {
        // The SDK and the server load only for this command, so other commands and --help start quickly.
        const { parseAllowRule } = await import('../../mcp/allowed-skills');
        const { createMcpContext } = await import('../../mcp/mcp-context');
        const { libraryProfiles } = await import('../../mcp/profile-source');
        const mcp = await createMcpContext({
          core,
          rule: parseAllowRule(opts.allow, opts.profile),
          profiles: libraryProfiles(core.context),
          preset: opts.preset,
          log: (line) => process.stderr.write(`${line}\n`),
        });
        const nothingServed = await nothingVerifiedLine(core, mcp.allowed.rule.kind);
        if (nothingServed) process.stderr.write(`${nothingServed}\n`);
        const withheld = await changedSinceVerifiedLine(core, mcp.allowed.rule.kind);
        if (withheld) process.stderr.write(`${withheld}\n`);
        if (opts.http) {
          const token = opts.token ?? (process.env.SKILL_CURATOR_MCP_TOKEN || undefined);
          const { startMcpHttpHost } = await import('../../mcp/http-transport');
          const host = await startMcpHttpHost(mcp, { port: opts.port, token });
          printLine(`MCP (Streamable HTTP) on ${host.url}`);
          printLine(`Token: ${host.token}`);
          printLine(mcp.allowed.sentence);
          await stopped(false);
          await host.close();
          return;
        }
        const { createCuratorMcpServer } = await import('../../mcp/server');
        const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
        const { guardedStdin } = await import('../../mcp/stdio-input');
        const server = createCuratorMcpServer(mcp);
        const input = guardedStdin((reply) => transport.send(reply));
        const transport = new StdioServerTransport(input.stream, process.stdout, {
          maxBufferSize: input.sdkBufferBytes,
        });
        await server.connect(transport);
        process.stderr.write(`skill-curator MCP on stdio. ${mcp.allowed.sentence}\n`);
        await stopped(true);
        await server.close();
      }),
    );
}

/** Verified skills that changed in their source since are withheld from agents: the curator hears which. */
async function changedSinceVerifiedLine(
  core: Pick<CuratorApi, 'library.list'>,
  rule: string,
): Promise<string | null> {
  if (rule !== 'verified') return null;
  const changed = await core['library.list']({ status: 'verified', verifiedAsIs: false, limit: 10 });
  if (changed.total === 0) return null;
  const names = changed.items.map((s) => terminalSafe(s.name)).join(', ');
  const more =
    changed.total > changed.items.length ? ` and ${changed.total - changed.items.length} more` : '';
  return (
    `Note: ${changed.total === 1 ? '1 verified skill has' : `${changed.total} verified skills have`} changed since ` +
    `${changed.total === 1 ? 'it was' : 'they were'} verified and ${changed.total === 1 ? 'is' : 'are'} withheld until verified again: ${names}${more} ` +
    '(states verify NAME, or list --status verified to review them).'
  );
}

/** The default rule serves verified skills only: on a library with none, say so, or an agent silently sees nothing. */
async function nothingVerifiedLine(
  core: Pick<CuratorApi, 'library.stats'>,
  rule: string,
): Promise<string | null> {
  if (rule !== 'verified') return null;
  const stats = await core['library.stats']({});
  if ((stats.byStatus.verified ?? 0) > 0) return null;
  return (
    `Warning: no skill of the ${stats.skills} in this library is verified yet, so agents will find none. ` +
    'Verify skills (the review queue, or states verify NAME), serve a profile with --profile, or use --allow all.'
  );
}
