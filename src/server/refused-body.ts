// A request answered before its body has all arrived (over a cap, or refused before it was read): the answer says
// `Connection: close` and the rest of the body is read and dropped, up to a bound. Otherwise the client's next request
// on that keep-alive connection would meet a reset socket, or the leftover bytes parsed as a request.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bytes dropped after a refusal before the connection is cut; a client that reads answers early has it by then. */
export const maxDroppedBytes = 1024 * 1024;

export function refuseRestOfBody(req: IncomingMessage, res: ServerResponse, bound = maxDroppedBytes): void {
  if (req.complete || !hasBody(req)) return;
  if (!res.headersSent) res.setHeader('Connection', 'close');
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > bound) req.socket.destroy();
  });
  req.resume();
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}
