// What every MCP server instance works on: the core, the curator's rule, profiles, the preset, a selection service
// whose runs are stored as asked for over MCP and whose recall sees only the allowed skills, and the usage record.
import type { SelectApi, SelectionPreset } from '../shared/api';
import type { Core } from '../core';
import { createSelectService } from '../core/api/select-service';
import type { AllowedSkills } from './allowed-skills';
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
  const allowed = allowedSkills(options.rule, options.profiles);
  // An unknown profile (or none in this build) is said at start, not at the agent's first call.
  await allowed.filter();
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
