import { describe, expect, it } from 'vitest';
import { idOfHead, idOfLine, stdioLineGuard, type DroppedLine } from '../../src/mcp/stdio-line-guard';

/** Feeds the chunks through a guard of `max` bytes; what came out, and what was dropped. */
async function through(chunks: string[], max: number): Promise<{ out: string; dropped: DroppedLine[] }> {
  const dropped: DroppedLine[] = [];
  const guard = stdioLineGuard((d) => dropped.push(d), max);
  const parts: Buffer[] = [];
  guard.on('data', (b: Buffer) => parts.push(b));
  const ended = new Promise((resolve) => guard.on('end', resolve));
  for (const c of chunks) guard.write(Buffer.from(c));
  guard.end();
  await ended;
  return { out: Buffer.concat(parts).toString(), dropped };
}

describe('stdioLineGuard', () => {
  it('passes lines under the cap whole, however they are chunked', async () => {
    const r = await through(['{"a":', '1}\n{"b"', ':2}\n'], 10);
    expect(r).toEqual({ out: '{"a":1}\n{"b":2}\n', dropped: [] });
  });

  it('drops a line over the cap, in one chunk or many, and keeps the lines around it', async () => {
    const long = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"${'y'.repeat(40)}"}}\n`;
    const one = await through([`{"ok":1}\n${long}{"ok":2}\n`], 30);
    expect(one.out).toBe('{"ok":1}\n{"ok":2}\n');
    expect(one.dropped).toEqual([{ id: 7, bytes: long.length }]);
    const many = await through([long.slice(0, 10), long.slice(10, 50), long.slice(50), '{"ok":3}\n'], 30);
    expect(many.out).toBe('{"ok":3}\n');
    expect(many.dropped).toEqual([{ id: 7, bytes: long.length }]);
  });

  it('reads the request id only from before the params', () => {
    expect(idOfHead('{"jsonrpc":"2.0","id":"req-1","method":"x"')).toBe('req-1');
    expect(idOfHead('{"method":"x","params":{"id":3}}')).toBeNull();
    expect(idOfHead('{"jsonrpc":"2.0","method":"notifications/x"')).toBeNull();
  });

  it('reads the id the SDK client writes last, from the end of the line, and never a nested one', async () => {
    const sdkOrder = `{"method":"tools/call","params":{"arguments":{"t":"${'z'.repeat(9000)}"}},"jsonrpc":"2.0","id":12}\n`;
    const r = await through([sdkOrder.slice(0, 5000), sdkOrder.slice(5000), '{"ok":4}\n'], 100);
    expect(r).toEqual({ out: '{"ok":4}\n', dropped: [{ id: 12, bytes: sdkOrder.length }] });
    expect(idOfLine('{"method":"x","params":{', '"b":{"id":3}}}')).toBeNull();
    expect(idOfLine('{"method":"x","params":{', '"b":1},"id":"r-9","jsonrpc":"2.0"}\n')).toBe('r-9');
  });
});
