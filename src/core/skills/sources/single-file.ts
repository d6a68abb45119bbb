// Single-file source: one SKILL.md on its own (no package files). Its folder name is the folder it sits in.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { buildSkill } from '../skill-md';
import type { ImportSettings } from '../types';
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
          const handle = await fsp.open(file, 'r');
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
