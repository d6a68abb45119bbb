// What every MCP server instance works on: the core, the curator's rule, profiles, the preset, a selection service
// whose runs are stored as asked for over MCP and whose recall sees only the allowed skills, and the usage record.
import type { SelectApi, SelectionPreset } from '../shared/api';
import type { Core } from '../core';
import { createSelectService } from '../core/api/select-service';
import { gatedSkillIds, gateRefusals, refusalList } from '../core/audit/audit-gate';
import type { AllowedSkills, AuditGateView } from './allowed-skills';
import { allowedSkills, type AllowRule } from './allowed-skills';
import type { ProfileSource } from './profile-source';
import { createCallLog, type CallLog } from './call-log';
import { createUsageRecorder, type UsageRecorder } from './usage-recorder';

export interface CuratorMcpContext {
  core: Core;
  allowed: AllowedSkills;
  profiles: ProfileSource;
  /** The preset select_skills uses; unset: the library's Settings. */
  preset?: SelectionPreset;
  select: SelectApi;
  /** Where the calls agents make are written for the curator (stderr in the CLI). */
  calls: CallLog;
  /** Where the calls are stored for the Usage view. */
  usage: UsageRecorder;
}

export async function createMcpContext(options: {
  core: Core;
  rule: AllowRule;
  profiles: ProfileSource;
  preset?: SelectionPreset;
  /** One line per logged call; default: nowhere. */
  log?: (line: string) => void;
}): Promise<CuratorMcpContext> {
  const ctx = options.core.context;
  const gate: AuditGateView = {
    withheld: () => gatedSkillIds(ctx),
    refusals: (ids) => gateRefusals(ctx, ids),
  };
  const allowed = allowedSkills(options.rule, options.profiles, gate);
  // An unknown profile (or none in this build) is said at start, not at the agent's first call.
  await allowed.filter();
  await sayWithheld(options.core, options.rule, options.profiles, options.log);
  return {
    core: options.core,
    allowed,
    profiles: options.profiles,
    preset: options.preset,
    select: createSelectService(options.core.context, { via: 'mcp', recallFilter: allowed.filter }),
    calls: createCallLog(options.log ?? (() => undefined)),
    usage: createUsageRecorder(options.core.context, options.rule, (line) => options.log?.(`mcp ${line}`)),
  };
}

/** The curator learns at start which served skills the audit gate withholds, by name and finding. */
async function sayWithheld(
  core: Core,
  rule: AllowRule,
  profiles: ProfileSource,
  log: ((line: string) => void) | undefined,
): Promise<void> {
  if (!log) return;
  const withheld = new Set(gatedSkillIds(core.context));
  if (withheld.size === 0) return;
  const served =
    rule.kind === 'profile'
      ? (await profiles.skillIds(rule.name)).filter((id) => withheld.has(id))
      : [...withheld];
  if (served.length === 0) return;
  const { skills, list } = refusalList(await gateRefusals(core.context, served));
  log(
    `mcp withholds ${skills} skill${skills === 1 ? '' : 's'} the audit refuses ` +
      `(audit.gateSeverity ${core.context.settings.get().audit.gateSeverity}): ${list}`,
  );
}
