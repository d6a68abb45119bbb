// CLI: convert a library written by an older version (each skill text stored once, the full-text index without its
// own copy), as a job that resumes where it stopped. The app and `serve` start it themselves.
import type { Command } from 'commander';
import { resumeLibraryConversion } from '../../core/api/library-conversion';
import type { ConversionResult } from '../../core/store/text-index-conversion';
import { followJob, printJobJson, printLine, requireDone } from '../output';
import { withCore } from '../run-command';

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export function registerConvertCommand(program: Command): void {
  program
    .command('convert')
    .description(
      'finish converting a library from an older version: each skill text stored once, compressed (resumable)',
    )
    .action(
      withCore(async (core, g) => {
        const job = resumeLibraryConversion(core.context);
        if (!job) return printLine('The library needs no conversion');
        const final = await followJob(core, job, !!g.json);
        if (g.json) return printJobJson(final, final);
        requireDone(final);
        const r = final.result as ConversionResult;
        printLine(
          `converted ${r.skills} skills: library file ${mib(r.bytesBefore)} -> ${mib(r.bytesAfter)} (${mib(r.reclaimedBytes)} given back)`,
        );
      }),
    );
}
