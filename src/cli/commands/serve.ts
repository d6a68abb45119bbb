// CLI: serve the API (and the browser UI when built) on loopback.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Core } from '../../core';
import { repoRoot } from '../paths';
import { printLine } from '../output';
import { portOption } from '../number-options';
import { withCore } from '../run-command';

export const builtRendererDir = path.join(repoRoot, 'out', 'renderer');

/** Serves until SIGINT/SIGTERM. */
export async function serveUntilStopped(core: Core, port: number, token?: string): Promise<void> {
  const rendererDir = existsSync(path.join(builtRendererDir, 'index.html')) ? builtRendererDir : undefined;
  const { startHttpHost } = await import('../../server/http-host');
  const { resumeFolderWatches, resumeLexicalStatsSoon, resumeLibraryConversion } = await import('../../core');
  const uploadDir = path.join(core.context.paths.dataDir, 'uploads');
  const host = await startHttpHost({ core, port, token, rendererDir, uploadDir });
  resumeFolderWatches(core.context);
  resumeLibraryConversion(core.context);
  resumeLexicalStatsSoon(core.context);
  printLine(`Serving on ${host.url}`);
  printLine(`Library: ${core.context.paths.dbFile}`);
  printLine(`Token: ${host.token}`);
  if (rendererDir) printLine(`Open ${host.url}/#token=${host.token}`);
  else printLine('(browser UI not built: run `npm run build:web` to serve it)');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await host.close();
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the API and the browser UI on 127.0.0.1 (a random token is printed)')
    .option('--port <port>', 'port (0 = any free one)', portOption, 0)
    .option('--token <token>', 'use this token instead of a random one')
    .action(
      withCore(async (core, _g, opts: { port: number; token?: string }) => {
        await serveUntilStopped(core, opts.port, opts.token);
      }),
    );
}
