// MCP over stdio reads one JSON-RPC message per line. The SDK's reader closes the whole transport when a line outgrows
// its buffer, so one oversized message would end the server without a word. This guard sits in front of it: a line
// over the cap is dropped as it streams (never held whole), answered with a JSON-RPC error, and the server goes on.
import { Transform, type TransformCallback } from 'node:stream';

/** The longest message line the server reads (the SDK's own default buffer). */
export const maxStdioLineBytes = 10 * 1024 * 1024;

/** How much of a dropped line's start and end is kept to find its request id in. */
const keptBytes = 4096;

export interface DroppedLine {
  /** The request id when the line's start names one, so the caller's request is answered, not left waiting. */
  id: string | number | null;
  /** Bytes of the line read before it was dropped (at least the cap). */
  bytes: number;
}

const idValue = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** The top-level id at the very end of an object (`…},"jsonrpc":"2.0","id":5}`); a nested one ends in `}}`. */
const idAtEnd = new RegExp(String.raw`"id"\s*:\s*${idValue}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`);

function parsedId(raw: string): string | number {
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw);
}

/** A request id at the top of a JSON-RPC object: before "params" or "result", as some clients write it. */
export function idOfHead(head: string): string | number | null {
  const before = head.split(/"(?:params|result|error)"\s*:/)[0]!;
  const match = new RegExp(String.raw`"id"\s*:\s*${idValue}`).exec(before);
  return match ? parsedId(match[1]!) : null;
}

/** The request id of a line known only by its start and end: the SDK's client writes the id last, others first. */
export function idOfLine(head: string, tail: string): string | number | null {
  const last = idAtEnd.exec(tail);
  return last ? parsedId(last[1]!) : idOfHead(head);
}

export function stdioLineGuard(
  onDropped: (line: DroppedLine) => void,
  maxBytes = maxStdioLineBytes,
): Transform {
  let lineBytes = 0; // bytes of the current line passed on so far
  let dropping: { head: Buffer; tail: Buffer; bytes: number } | null = null;
  let pending: Buffer[] = []; // the current line's bytes not yet passed on

  const keepTail = (tail: Buffer, piece: Buffer): Buffer => {
    const joined = piece.length >= keptBytes ? piece : Buffer.concat([tail, piece]);
    return Buffer.from(joined.subarray(Math.max(0, joined.length - keptBytes)));
  };
  const drop = (line: { head: Buffer; tail: Buffer; bytes: number }): void => {
    onDropped({ id: idOfLine(line.head.toString('utf8'), line.tail.toString('utf8')), bytes: line.bytes });
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      let start = 0;
      while (start < chunk.length) {
        const nl = chunk.indexOf(0x0a, start);
        const end = nl === -1 ? chunk.length : nl + 1;
        const piece = chunk.subarray(start, end);
        start = end;
        if (!dropping && lineBytes + piece.length > maxBytes) {
          const whole = Buffer.concat([...pending, piece]);
          const head = Buffer.from(whole.subarray(0, keptBytes));
          dropping = { head, tail: keepTail(Buffer.alloc(0), whole), bytes: lineBytes + piece.length };
          pending = [];
        } else if (dropping) {
          dropping.tail = keepTail(dropping.tail, piece);
          dropping.bytes += piece.length;
        } else {
          // Held until the line ends, so a line that turns out too long never reaches the reader in part.
          pending.push(piece);
          lineBytes += piece.length;
          if (nl !== -1) {
            this.push(Buffer.concat(pending));
            pending = [];
            lineBytes = 0;
          }
          continue;
        }
        if (nl !== -1) {
          drop(dropping);
          dropping = null;
          lineBytes = 0;
        }
      }
      done();
    },
    flush(done: TransformCallback) {
      if (pending.length > 0) this.push(Buffer.concat(pending));
      done();
    },
  });
}
