// Browser mode's upload: the page cannot name a path on the server's machine, so it sends a .zip or a SKILL.md as the
// request body and gets back the path to import. Same token as the API, a size cap, only those two kinds of file.
// The same file name lands in the same place, so uploading a newer zip updates the source it made before. A browser saves
// a second download of pack.zip as "pack (1).zip" (Chrome, Edge) or "pack(1).zip" (Firefox): to the curator that is the
// same file, so that suffix is dropped and it lands in pack.zip's place too.
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { CuratorError } from '../shared/errors';

export const defaultMaxUploadBytes = 256 * 1024 * 1024;

/** " (1)" or "(12)" after a name, before its extension: what a browser adds to a file it has downloaded before. */
const downloadCopySuffix = /(?<=[^\s(]) ?\(\d{1,4}\)(?=\.(zip|md)$)/i;

export async function receiveUpload(
  req: IncomingMessage,
  uploadDir: string,
  fileName: string,
  limit: number,
): Promise<{ path: string }> {
  const base = path.basename(fileName.replace(/\\/g, '/')).replace(downloadCopySuffix, '');
  const isZip = /\.zip$/i.test(base);
  const isSkillMd = /\.md$/i.test(base);
  if (!isZip && !isSkillMd) {
    throw new CuratorError('INVALID_ARGUMENT', `Upload a .zip of skills or a SKILL.md, not "${base}"`);
  }
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limit) throw tooLarge(limit);
  const stem =
    base
      .replace(/\.(zip|md)$/i, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 80) || 'upload';
  mkdirSync(uploadDir, { recursive: true });
  const partial = path.join(uploadDir, `.${stem}.${process.pid}.${Date.now()}.part`);
  let size = 0;
  let head = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(partial, { mode: 0o600 });
      // Over the cap, the file is dropped but the request is not destroyed: the host still answers 413 on it.
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          req.off('data', onData);
          out.destroy();
          reject(tooLarge(limit));
          return;
        }
        if (head.length < 4096) head += chunk.toString('utf8', 0, Math.min(chunk.length, 4096));
        out.write(chunk);
      };
      req.on('data', onData);
      req.on('end', () => out.end(() => resolve()));
      req.on('error', reject);
      out.on('error', reject);
    });
    if (size === 0) throw new CuratorError('INVALID_ARGUMENT', 'The upload is empty');
    // A single SKILL.md is checked against the folder it sits in, so it goes in a folder named after the skill.
    const skillName = isSkillMd ? (/^name:\s*["']?([A-Za-z0-9._-]+)/m.exec(head)?.[1] ?? stem) : null;
    const dir = path.join(uploadDir, isZip ? `zip-${stem}` : `skill-${skillName}`, isZip ? '' : skillName!);
    mkdirSync(dir, { recursive: true });
    const target = path.join(dir, isZip ? base : 'SKILL.md');
    renameSync(partial, target);
    return { path: target };
  } finally {
    rmSync(partial, { force: true });
  }
}

function tooLarge(limit: number): CuratorError {
  return new CuratorError('TOO_LARGE', `The upload is over ${sizeWords(limit)}`);
}

function sizeWords(bytes: number): string {
  if (bytes >= 1048576) return `${Math.round(bytes / 1048576)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
