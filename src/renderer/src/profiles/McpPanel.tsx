// How to hand a profile to an agent over MCP from the app: the command lines with this library and this profile
// filled in (the README and docs/mcp.md say the same for the CLI; a newcomer in the app found no word of MCP).
import { libraryArgs, shellWord } from '../../../shared/cli-command';
import { useApi } from '../app/use-api';

export function McpPanel({ profile }: { profile: string }) {
  const paths = useApi('settings.paths', {});
  // Shown once the host answered: a command without --data would serve another library, so a host that does not say
  // its folder (an older one) gets a placeholder to fill in.
  if (!paths.data) return null;
  const args = [...libraryArgs(paths.data), ...['mcp', '--preset', 'offline', '--profile', profile]];
  const server = `skill-curator-${profile.replace(/[^\w-]/g, '-')}`;
  const command = ['skill-curator', ...args.map(shellWord)].join(' ');
  const toml = [
    `[mcp_servers.${server}]`,
    'command = "skill-curator"',
    `args = [${args.map((a) => JSON.stringify(a)).join(', ')}]`,
  ].join('\n');
  return (
    <section className="panel" aria-label="Serve over MCP" data-testid="mcp-panel">
      <h3>Serve to agents over MCP</h3>
      <p className="small muted">
        An agent can search this profile and ask which of its skills fit a task (with the why), without
        copying any folder. Run from a checkout, use <code>node bin/skill-curator.mjs</code> for{' '}
        <code>skill-curator</code>. Without models, <code>--preset offline</code> answers at once; see
        docs/mcp.md for HTTP.
      </p>
      <p className="small">Claude Code:</p>
      <pre data-testid="mcp-claude">
        claude mcp add {server} -- {command}
      </pre>
      <p className="small">Codex (~/.codex/config.toml):</p>
      <pre data-testid="mcp-codex">{toml}</pre>
      <p className="small">Any MCP client, over stdio:</p>
      <pre data-testid="mcp-stdio">{command}</pre>
      <p className="small muted">
        What agents then search, select and read, and which skills of this profile they never use, shows on
        the <a href="#/usage">Usage</a> screen.
      </p>
    </section>
  );
}
