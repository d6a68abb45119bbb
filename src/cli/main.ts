#!/usr/bin/env node
// The command-line host of the core: every command goes through the same typed API as the app.
import { Command } from 'commander';
import { registerConflictResolveCommand } from './commands/conflicts-resolve';
import { registerConvertCommand } from './commands/convert';
import { registerDemoCommand } from './commands/demo';
import { registerEvaluationCommands } from './commands/evaluation';
import { registerJobCommands } from './commands/jobs';
import { registerLibraryCommands } from './commands/library';
import { registerLibraryFileCommands } from './commands/library-file';
import { registerLlmCommands } from './commands/llm';
import { registerMcpCommand } from './commands/mcp';
import { registerModelCommands } from './commands/models';
import { registerProfileCommands } from './commands/profiles';
import { registerSettingsCommands } from './commands/settings';
import { registerSelectCommands } from './commands/select';
import { registerServeCommand } from './commands/serve';
import { registerSourceCommands } from './commands/sources';
import { registerTagCommands } from './commands/tags';
import { registerUsageCommands } from './commands/usage';
import { registerAuditCommands } from './commands/audit';

const program = new Command('skill-curator')
  .description('Curate, parse, search and test selection over libraries of AI-agent skills')
  .option('--data <dir>', 'data folder (default $SKILL_CURATOR_DATA or ~/.local/share/skill-curator)')
  .option('--db <file>', 'library file (default <data>/library.db)')
  .option('--json', 'print JSON')
  .option('--verbose', 'log debug lines to stderr')
  .showHelpAfterError();

// `skill-curator conflicts | head` closes the pipe before the output ends: stop quietly, as other command-line tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

registerLibraryCommands(program);
registerConflictResolveCommand(program);
registerLibraryFileCommands(program);
registerJobCommands(program);
registerModelCommands(program);
registerLlmCommands(program);
registerSelectCommands(program);
registerEvaluationCommands(program);
registerSettingsCommands(program);
registerProfileCommands(program);
registerServeCommand(program);
registerSourceCommands(program);
registerTagCommands(program);
registerMcpCommand(program);
registerUsageCommands(program);
registerAuditCommands(program);
registerDemoCommand(program);
registerConvertCommand(program);

await program.parseAsync(process.argv);
