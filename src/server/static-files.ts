// Serves the built renderer for browser mode; paths can never leave the folder.
import { createReadStream, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { contentSecurityPolicy } from '../shared/csp';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export function serveStatic(rootDir: string, urlPath: string, res: ServerResponse): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return false;
  }
  const root = path.resolve(rootDir);
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const file = path.resolve(root, relative);
  if (file !== root && !file.startsWith(root + path.sep)) return false;
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return false;
  }
  if (!stat.isFile()) return false;
  res.writeHead(200, {
    'Content-Type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': stat.size,
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  });
  // Whole files in few reads: each read waits for a turn of the event loop, which a background job's batch can hold
  // for a few hundred ms (the renderer's 1.8 MB script came in 64 KiB reads, 8-12 s while a 68k library's words were
  // counted).
  createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
  return true;
}
