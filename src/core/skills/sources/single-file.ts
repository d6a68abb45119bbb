// Single-file source: one SKILL.md on its own (no package files). Its folder name is the folder it sits in.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { buildSkill } from '../skill-md';
import type { ImportSettings } from '../types';
import { issueOf, openRegularFile, SourceFileError } from './safe-open';
import { rejection, type OpenedSource } from './source';

export async function openSingleFileSource(file: string, limits: ImportSettings): Promise<OpenedSource> {
  const name = path.basename(file);
  const st = await fsp.stat(file);
  if (st.size > limits.skillMdMaxBytes) {
    return {
      items: [
        rejection(
          '',
          name,
          'skill-md-too-large',
          `${name} is ${st.size} bytes; the limit is ${limits.skillMdMaxBytes}`,
        ),
      ],
      close: async () => {},
    };
  }
  const folderName = path.basename(path.dirname(path.resolve(file)));
  return {
    items: [
      {
        type: 'candidate',
        relPath: '',
        file: name,
        load: async () => {
          let handle;
          try {
            handle = await openRegularFile(file, { label: name, expect: { dev: st.dev, ino: st.ino } });
          } catch (error) {
            if (error instanceof SourceFileError) return { ok: false, issues: [issueOf(error, name)] };
            throw error;
          }
          try {
            const buf = Buffer.alloc(limits.skillMdMaxBytes + 1);
            const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
            return buildSkill({
              bytes: buf.subarray(0, bytesRead),
              file: name,
              relPath: '',
              folderName,
              files: [],
              maxBytes: limits.skillMdMaxBytes,
              nameFolderMismatch: limits.nameFolderMismatch,
              nameFormat: limits.nameFormat,
            });
          } finally {
            await handle.close();
          }
        },
      },
    ],
    close: async () => {},
  };
}
