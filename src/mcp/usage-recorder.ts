// Records each MCP call in the library for the curator's Usage view: the tool, the task or query, the skills it
// offered, selected or read, the rule it was served under and the client that asked. Recording never fails a call:
// a library that cannot take the write (locked, read-only) costs the row, said once on the log, not the agent's answer.
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { CoreContext } from '../core/context';
import { pruneUsageCalls, recordUsageCall, type NewUsageCall } from '../core/usage/usage-store';
import type { AllowRule } from './allowed-skills';

export type UsageEvent = Pick<NewUsageCall, 'tool' | 'query' | 'runId' | 'skills'>;

/** Records one call of a server's client in the library's usage. */
export type TrackUsage = (event: UsageEvent) => void;

export interface UsageRecorder {
  record(event: UsageEvent, client: Implementation | undefined): void;
}

/** Past retention is deleted at the first call and then at most this often. */
const PRUNE_EVERY_MS = 3_600_000;

export const clientLabel = (client: Implementation | undefined): string | null =>
  client ? `${client.name}${client.version ? ` ${client.version}` : ''}`.slice(0, 200) : null;

export function createUsageRecorder(
  ctx: Pick<CoreContext, 'db' | 'clock' | 'settings'>,
  rule: AllowRule,
  warn: (line: string) => void,
): UsageRecorder {
  let prunedAt = -Infinity;
  let warned = false;
  return {
    record(event, client) {
      try {
        const days = ctx.settings.get().usage.retentionDays;
        if (days === 0) return;
        const now = ctx.clock();
        if (now.getTime() - prunedAt >= PRUNE_EVERY_MS) {
          pruneUsageCalls(ctx.db, new Date(now.getTime() - days * 86_400_000).toISOString());
          prunedAt = now.getTime();
        }
        recordUsageCall(ctx.db, {
          ...event,
          at: now.toISOString(),
          client: clientLabel(client),
          rule: rule.kind,
          profile: rule.kind === 'profile' ? rule.name : null,
        });
      } catch (error) {
        if (!warned) warn(`usage not recorded (${String(error)}); the calls are still answered`);
        warned = true;
      }
    },
  };
}
