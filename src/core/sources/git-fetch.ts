// Fetches a Git repository (branch or tag) with isomorphic-git into a fresh folder under the data dir. isomorphic-git
// speaks HTTP(S) only; a token goes as HTTP Basic auth (the form GitHub, GitLab and Gitea accept).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../../shared/errors';
import { guardedHttp } from './git-guarded-http';
import type { PackCaps } from './git-pack-guard';

export interface GitLocation {
  url: string;
  ref: string | null;
  subdir: string;
}

/** The folder that caches one (url, ref, sub-folder): checkout/ is imported, next/ holds a fetch not yet applied. */
export function gitCacheDir(dataDir: string, where: GitLocation): string {
  const key = createHash('sha256')
    .update(`${where.url}\n${where.ref ?? ''}\n${where.subdir}`)
    .digest('hex');
  return path.join(dataDir, 'sources', 'git', key.slice(0, 16));
}

export function normaliseSubdir(subdir: string | undefined): string {
  const clean = (subdir ?? '').replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
  if (clean.split('/').some((part) => part === '..')) {
    throw new CuratorError('INVALID_ARGUMENT', `The sub-folder "${subdir}" leaves the repository`);
  }
  return clean;
}

/** The URL with any user name and password shown as ***, for messages. */
export function redactedUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1***@');
}

export function checkGitUrl(url: string): void {
  // Credentials in the URL would be printed, stored in the library, in jobs, backups and the checkout's .git/config.
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/\s]*@/i.test(url)) {
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `The URL ${redactedUrl(url)} carries a user name or password; give it without them and pass the password or token ` +
        'on standard input (--token-stdin), so it is kept in the system keychain and never in the library',
    );
  }
  if (!/^https?:\/\/[^/\s]+/i.test(url)) {
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `"${url}" is not an http(s) Git URL; clone it yourself and import the folder, or use https://host/owner/repo.git`,
    );
  }
}

/**
 * The sub-folder to import, refused when it (or a folder on the way to it) is a link that leads out of the checkout:
 * a repository could otherwise point the import at any folder on this disk. Links below it are the folder walk's to
 * refuse (symlink-escapes-source), as in any folder import.
 */
function checkedSubfolder(dest: string, where: GitLocation): string {
  const folder = path.join(dest, where.subdir);
  const missing = (): CuratorError =>
    new CuratorError(
      'NOT_FOUND',
      `The repository has no folder "${where.subdir}" at ${where.ref ?? 'its default branch'}`,
    );
  let real: string;
  try {
    real = fs.realpathSync.native(folder);
  } catch {
    throw missing();
  }
  const root = fs.realpathSync.native(dest);
  if (real !== root && !real.startsWith(root + path.sep))
    throw new CuratorError(
      'VALIDATION_FAILED',
      `The sub-folder "${where.subdir}" is a link that leads out of the repository (to ${real}); ` +
        'Skill Curator imports only what the repository itself holds',
    );
  if (!fs.statSync(real).isDirectory()) throw missing();
  return folder;
}

/** Clones into `dest` (removed first) at `ref`; returns the commit. */
export async function fetchInto(
  dest: string,
  where: GitLocation,
  token: string | null,
  caps: PackCaps,
  signal?: AbortSignal,
): Promise<string> {
  // isomorphic-git loads at the first fetch, not with the core: the host starts without it.
  const [{ default: git }, { default: http }] = await Promise.all([
    import('isomorphic-git'),
    import('isomorphic-git/http/node'),
  ]);
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  try {
    await git.clone({
      fs,
      http: guardedHttp(http, caps),
      dir: dest,
      url: where.url,
      ...(where.ref ? { ref: where.ref } : {}),
      singleBranch: true,
      depth: 1,
      onAuth: () => (token ? { username: 'x-access-token', password: token } : { cancel: true }),
      onProgress: () => {
        if (signal?.aborted) throw new CuratorError('CANCELLED', 'Cancelled');
      },
    });
  } catch (error) {
    fs.rmSync(dest, { recursive: true, force: true });
    throw explain(error, where, token);
  }
  const commit = await git.resolveRef({ fs, dir: dest, ref: 'HEAD' });
  try {
    checkedSubfolder(dest, where);
  } catch (error) {
    fs.rmSync(dest, { recursive: true, force: true });
    throw error;
  }
  return commit;
}

/** Moves a fetched next/ over checkout/ (the path the source's row names stays the same). */
export function promote(cacheDir: string): void {
  const next = path.join(cacheDir, 'next');
  const checkout = path.join(cacheDir, 'checkout');
  const old = path.join(cacheDir, 'old');
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(checkout)) fs.renameSync(checkout, old);
  fs.renameSync(next, checkout);
  fs.rmSync(old, { recursive: true, force: true });
}

function explain(error: unknown, where: GitLocation, token: string | null): Error {
  if (error instanceof CuratorError) return error;
  const e = error as Error & { code?: string; data?: { statusCode?: number } };
  const status = e.data?.statusCode;
  if (status === 401 || status === 403 || e.code === 'UserCanceledError') {
    return new CuratorError(
      'UNAUTHORIZED',
      token
        ? `${where.url} refused the token (HTTP ${status ?? 401}); check that it can read the repository`
        : `${where.url} needs a token: it is private or the URL is wrong`,
    );
  }
  if (status === 404) return new CuratorError('NOT_FOUND', `No repository at ${where.url}`);
  if (e.code === 'NotFoundError') {
    return new CuratorError('NOT_FOUND', `${where.url} has no branch or tag "${where.ref}"`);
  }
  return new CuratorError('UNAVAILABLE', `Could not fetch ${where.url}: ${e.message}`);
}
