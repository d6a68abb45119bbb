// isomorphic-git's HTTP client with the pack guard on the upload-pack response: the fetch stops at the first file
// larger than the import takes, with a message that says so, instead of downloading and inflating it first.
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { CuratorError } from '../../shared/errors';
import { packGuard, type PackCaps, type PackRefusal } from './git-pack-guard';

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export function refusalMessage(refusal: PackRefusal, caps: PackCaps): string {
  const stopped = `the fetch stopped after ${mib(refusal.downloaded)} and nothing was imported`;
  return refusal.kind === 'object'
    ? `The repository holds a file of ${mib(refusal.bytes)}, over the ${mib(caps.objectMaxBytes)} Skill Curator imports ` +
        `per file; ${stopped}. Remove the file from the repository, or raise import.packageFileMaxBytes in the settings.`
    : `The repository's download is over ${mib(caps.downloadMaxBytes)}; ${stopped}. ` +
        'Import a smaller repository, or raise import.gitDownloadMaxBytes in the settings.';
}

export function guardedHttp(http: HttpClient, caps: PackCaps): HttpClient {
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      const stop = new AbortController();
      const signal = req.signal ? AbortSignal.any([req.signal, stop.signal]) : stop.signal;
      const res = await http.request({ ...req, signal });
      if (!res.body || !/\/git-upload-pack$/.test(new URL(req.url).pathname)) return res;
      const body = res.body;
      const guard = packGuard(caps);
      async function* guarded(): AsyncIterableIterator<Uint8Array> {
        for await (const chunk of body) {
          const refusal = guard.feed(chunk);
          if (refusal) {
            stop.abort();
            throw new CuratorError('VALIDATION_FAILED', refusalMessage(refusal, caps));
          }
          yield chunk;
        }
      }
      return { ...res, body: guarded() };
    },
  };
}
