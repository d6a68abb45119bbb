// What a Git source with one file over the import's cap costs in memory (issue 29): a repository holding a 100 MiB file
// of random bytes, served by a loopback `git http-backend`, is fetched as the Git source does (guarded: stops at the
// file) and as isomorphic-git does unguarded (the whole pack downloaded, indexed and checked out before the import
// refused the file). Each fetch runs in its own process; prints each one's peak RSS and wall time, and their ratio.
// Run: npm run bench:git -- [MIB]   (default 100; at 150 the loopback git http-backend resets the connection)
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startGitServer } from '../test/fixtures/git-server';
import { makeSkillRepo, skillMd } from '../test/fixtures/git-skills';

const self = fileURLToPath(import.meta.url);
const mib = 1024 * 1024;

async function child(mode: string, url: string, dest: string): Promise<void> {
  const started = performance.now();
  let outcome = 'fetched';
  try {
    if (mode === 'guarded') {
      const { fetchInto } = await import('../src/core/sources/git-fetch');
      await fetchInto(dest, { url, ref: null, subdir: '' }, null, {
        objectMaxBytes: 64 * mib,
        downloadMaxBytes: 1024 * mib,
      });
    } else {
      const [{ default: git }, { default: http }] = await Promise.all([
        import('isomorphic-git'),
        import('isomorphic-git/http/node'),
      ]);
      await git.clone({ fs, http, dir: dest, url, singleBranch: true, depth: 1 });
    }
  } catch (error) {
    outcome = `refused: ${(error as Error).message.slice(0, 90)}…`;
  }
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(
    JSON.stringify({
      mode,
      peakRssMiB: Math.round(peak / mib),
      seconds: (performance.now() - started) / 1000,
      outcome,
    }),
  );
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 100) * mib;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-git-'));
  try {
    const repo = makeSkillRepo(root, 'big', { 'pack/video/SKILL.md': skillMd('video', 'Plays a video.') });
    fs.mkdirSync(path.join(repo.work, 'pack/video/assets'));
    const file = fs.openSync(path.join(repo.work, 'pack/video/assets/demo.bin'), 'w');
    for (let at = 0; at < size; at += 16 * mib)
      fs.writeSync(
        file,
        new Uint8Array(Math.min(16 * mib, size - at)).map(() => (Math.random() * 256) | 0),
      );
    fs.closeSync(file);
    repo.push('a large asset');
    // The server runs in a process of its own, as a Git host would: in this one, a 150 MB pack reset the connection.
    const server = spawn(process.execPath, ['--import', 'tsx', self, '--serve', root], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const baseUrl = await new Promise<string>((resolve) =>
      server.stdout.once('data', (b: Buffer) => resolve(b.toString().trim())),
    );
    const results = [];
    for (const mode of ['unguarded', 'guarded']) {
      const { stdout: out } = await promisify(execFile)(process.execPath, [
        '--import',
        'tsx',
        self,
        '--child',
        mode,
        `${baseUrl}big.git`,
        path.join(root, `clone-${mode}`),
      ]);
      const line = JSON.parse(out.trim().split('\n').pop()!) as { peakRssMiB: number };
      console.log(JSON.stringify(line));
      results.push(line);
    }
    server.kill();
    console.log(
      `file ${size / mib} MiB: peak RSS guarded / unguarded = ${(results[1]!.peakRssMiB / results[0]!.peakRssMiB).toFixed(3)}`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve') console.log((await startGitServer(process.argv[3]!)).baseUrl);
else if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!, process.argv[5]!);
else await main();
