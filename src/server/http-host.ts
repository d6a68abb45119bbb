// The local HTTP host of the API: loopback only, a random bearer token, JSON errors as data, events as SSE.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiMethod, CuratorApi } from '../shared/api';
import { isApiMethod } from '../shared/api';
import { CuratorError, toErrorData } from '../shared/errors';
import type { CuratorEventListener } from '../shared/events';
import { httpStatusFor } from './http-status';
import { refuseRestOfBody } from './refused-body';
import { serveStatic } from './static-files';
import { defaultMaxUploadBytes, receiveUpload } from './upload';

export interface HttpHostOptions {
  core: CuratorApi & { onEvent(listener: CuratorEventListener): () => void };
  port?: number;
  /** A fixed token (tests); otherwise a random one. */
  token?: string;
  /** The built renderer, served at / for browser mode. */
  rendererDir?: string;
  maxBodyBytes?: number;
  /** Where POST /api/upload?name=FILE puts an uploaded .zip or SKILL.md (browser mode); no uploads without it. */
  uploadDir?: string;
  maxUploadBytes?: number;
}

export interface HttpHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

export function sameToken(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body ?? null);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: unknown): void {
  const data = toErrorData(error);
  sendJson(res, httpStatusFor(data.code), data);
}

/** Reads the JSON body; one over the limit is refused without destroying the request (the answer still goes out). */
async function readBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      reject(new CuratorError('TOO_LARGE', `Request body over ${limit} bytes`));
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8').trim()));
    req.on('error', reject);
  });
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new CuratorError('INVALID_ARGUMENT', 'The request body is not valid JSON');
  }
}

export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const token = options.token ?? randomBytes(24).toString('hex');
  const maxBody = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const sseClients = new Set<ServerResponse>();
  let port = 0;

  const unsubscribe = options.core.onEvent((event) => {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const client of sseClients) client.write(line);
  });

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', `http://${HOST}`);
      // DNS rebinding: a page on another origin that resolves to loopback still sends its own Host.
      const host = req.headers.host ?? '';
      if (host !== `${HOST}:${port}` && host !== `localhost:${port}`) {
        throw new CuratorError('UNAUTHORIZED', 'Unexpected Host header');
      }
      if (url.pathname === '/api/events' && req.method === 'GET') {
        if (!sameToken(url.searchParams.get('token'), token)) {
          throw new CuratorError('UNAUTHORIZED', 'Missing or wrong token');
        }
        res.writeHead(200, {
          'Content-Type': 'text/event-stream',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
        });
        res.write(': connected\n\n');
        sseClients.add(res);
        req.on('close', () => sseClients.delete(res));
        return;
      }
      if (url.pathname.startsWith('/api/')) {
        const auth = req.headers.authorization ?? '';
        const given = auth.startsWith('Bearer ') ? auth.slice(7) : null;
        if (!sameToken(given, token)) throw new CuratorError('UNAUTHORIZED', 'Missing or wrong token');
        if (req.method !== 'POST') throw new CuratorError('INVALID_ARGUMENT', 'API calls use POST');
        if (url.pathname === '/api/upload') {
          if (!options.uploadDir) throw new CuratorError('UNAVAILABLE', 'This host takes no uploads');
          const name = url.searchParams.get('name') ?? '';
          const limit = options.maxUploadBytes ?? defaultMaxUploadBytes;
          sendJson(res, 200, await receiveUpload(req, options.uploadDir, name, limit));
          return;
        }
        const method = url.pathname.slice('/api/'.length);
        if (!isApiMethod(method)) throw new CuratorError('NOT_FOUND', `No API method "${method}"`);
        const body = await readBody(req, maxBody);
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          throw new CuratorError('INVALID_ARGUMENT', 'The request body must be a JSON object');
        }
        const call = options.core[method as ApiMethod] as (req: unknown) => Promise<unknown>;
        const result = await call.call(options.core, body);
        sendJson(res, 200, result);
        return;
      }
      if (req.method === 'GET' && options.rendererDir && serveStatic(options.rendererDir, url.pathname, res))
        return;
      throw new CuratorError('NOT_FOUND', `Nothing at ${url.pathname}`);
    } catch (error) {
      refuseRestOfBody(req, res);
      if (!res.headersSent) sendError(res, error);
      else res.end();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const heartbeat = setInterval(() => {
    for (const client of sseClients) client.write(': ping\n\n');
  }, 15_000);
  heartbeat.unref();

  return {
    url: `http://${HOST}:${port}`,
    port,
    token,
    close: async () => {
      clearInterval(heartbeat);
      unsubscribe();
      for (const client of sseClients) client.end();
      sseClients.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
