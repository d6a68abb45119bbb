// The server's stdin for MCP over stdio, behind the line guard: a message over the cap is answered with JSON-RPC's
// "Invalid Request" (to its id when its start names one) and noted on stderr, and the server keeps serving.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable } from 'node:stream';
import { maxStdioLineBytes, stdioLineGuard } from './stdio-line-guard';

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export function guardedStdin(reply: (message: JSONRPCMessage) => Promise<void>): {
  stream: Readable;
  /** The SDK reader's buffer: a whole line under the cap plus the chunk that ends it. */
  sdkBufferBytes: number;
} {
  const guard = stdioLineGuard(({ id, bytes }) => {
    const message = `The message of over ${mib(bytes)} is longer than the ${mib(maxStdioLineBytes)} this server reads; it was dropped. Send a smaller message.`;
    process.stderr.write(`refused a JSON-RPC message: ${message}\n`);
    // JSON-RPC answers a request whose id cannot be read with id null.
    void reply({ jsonrpc: '2.0', id, error: { code: -32600, message } } as unknown as JSONRPCMessage);
  });
  return { stream: process.stdin.pipe(guard), sdkBufferBytes: maxStdioLineBytes + 1024 * 1024 };
}
