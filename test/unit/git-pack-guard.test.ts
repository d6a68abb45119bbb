// The pack guard reads a real upload-pack response (a pack from the system git, framed in side-band pkt-lines as
// git-upload-pack sends it) object by object, however it is chunked, and refuses at the first object over its cap.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packGuard } from '../../src/core/sources/git-pack-guard';
import { gitIn } from '../fixtures/git-server';

let dir: string;
const mib = 1024 * 1024;

function pktLine(payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0')), payload]);
}

/** git-upload-pack's answer to a shallow fetch: shallow and NAK lines, then the pack on band 1 with progress on 2. */
function uploadPackResponse(pack: Buffer): Buffer {
  const lines = [pktLine(Buffer.from('shallow ' + '0'.repeat(40) + '\n')), Buffer.from('0000')];
  lines.push(pktLine(Buffer.from('NAK\n')));
  for (let at = 0; at < pack.length; at += 65515) {
    lines.push(pktLine(Buffer.concat([Buffer.from([1]), pack.subarray(at, at + 65515)])));
    lines.push(pktLine(Buffer.from('\x02Counting objects: 50%\r')));
  }
  lines.push(Buffer.from('0000'));
  return Buffer.concat(lines);
}

function packOf(deltaBaseOffset: boolean): { response: Buffer; objects: number } {
  const args = ['pack-objects', '--stdout', '--revs', ...(deltaBaseOffset ? ['--delta-base-offset'] : [])];
  const pack = execFileSync('git', args, { cwd: dir, input: 'HEAD\n', maxBuffer: 64 * mib });
  return { response: uploadPackResponse(pack), objects: pack.readUInt32BE(8) };
}

/** Feeds the bytes in chunks of pseudo-random sizes (1 byte to 100 KiB). */
function feedAll(feed: (c: Uint8Array) => unknown, bytes: Buffer): unknown {
  let seed = 7;
  for (let at = 0; at < bytes.length;) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (seed % (seed % 3 === 0 ? 16 : 100 * 1024));
    const verdict = feed(bytes.subarray(at, at + size));
    if (verdict) return verdict;
    at += size;
  }
  return null;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sc-pack-guard-'));
  gitIn(dir, 'init', '-q', '-b', 'main');
  // Two near-identical text files make a delta; random bytes do not compress.
  const text = Array.from({ length: 20000 }, (_, i) => `line ${i} of the reference\n`).join('');
  writeFileSync(path.join(dir, 'a.md'), text);
  writeFileSync(path.join(dir, 'b.md'), text.replace('line 500 ', 'line five hundred '));
  let x = 1;
  writeFileSync(
    path.join(dir, 'noise.bin'),
    Buffer.from(Array.from({ length: 3 * mib }, () => (x = (x * 48271) % 2147483647) & 255)),
  );
  for (let i = 0; i < 30; i++) writeFileSync(path.join(dir, `small-${i}.txt`), `file ${i}\n`);
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'files');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('packGuard', () => {
  for (const offsets of [true, false]) {
    it(`reads every object of a pack with ${offsets ? 'offset' : 'reference'} deltas, chunked any way`, () => {
      const { response, objects } = packOf(offsets);
      const guard = packGuard({ objectMaxBytes: 4 * mib, downloadMaxBytes: 64 * mib });
      expect(feedAll(guard.feed, response)).toBeNull();
      expect(guard.objectsRead()).toBe(objects);
    });
  }

  it('refuses at the first object over the cap, before its bytes arrive', () => {
    const { response } = packOf(true);
    const guard = packGuard({ objectMaxBytes: 2 * mib, downloadMaxBytes: 64 * mib });
    const refusal = feedAll(guard.feed, response) as { kind: string; bytes: number; downloaded: number };
    expect(refusal).toMatchObject({ kind: 'object', bytes: 3 * mib });
    expect(refusal.downloaded).toBeLessThan(response.length - 2 * mib);
  });

  it('refuses a download over its cap, and stops reading what it does not know as a pack', () => {
    const { response } = packOf(true);
    const capped = packGuard({ objectMaxBytes: 64 * mib, downloadMaxBytes: mib });
    expect(feedAll(capped.feed, response)).toMatchObject({ kind: 'download' });
    const odd = packGuard({ objectMaxBytes: 1, downloadMaxBytes: 64 * mib });
    expect(odd.feed(Buffer.from('HTTP/1.1 not a pkt-line'))).toBeNull();
    expect(odd.objectsRead()).toBeNull();
  });
});
