// An import report as UTF-8 JSON, built a part at a time. A 68k import's report is 13 MB of JSON: as one string it sat
// in V8's heap next to better-sqlite3's UTF-8 copy of it (and SQLite's), the last peak of a folder import.
import type { ImportReport } from '../skills/types';

/** Entries of a list stringified at once: small strings, gone by the next part. */
const entriesPerPart = 500;

/** The same bytes as Buffer.from(JSON.stringify(report)), without the whole text as one string. */
export function reportJsonBytes(report: ImportReport): Buffer {
  const parts: Buffer[] = [];
  let first = true;
  const head = (key: string) => {
    const text = `${first ? '{' : ','}${JSON.stringify(key)}:`;
    first = false;
    return text;
  };
  for (const [key, value] of Object.entries(report)) {
    if (!Array.isArray(value)) {
      // JSON.stringify leaves out a key whose value it cannot write (undefined, a function).
      const text = JSON.stringify(value) as string | undefined;
      if (text !== undefined) parts.push(Buffer.from(head(key) + text));
      continue;
    }
    parts.push(Buffer.from(`${head(key)}[`));
    for (let i = 0; i < value.length; i += entriesPerPart) {
      const chunk = JSON.stringify(value.slice(i, i + entriesPerPart));
      parts.push(Buffer.from((i > 0 ? ',' : '') + chunk.slice(1, -1)));
    }
    parts.push(Buffer.from(']'));
  }
  parts.push(Buffer.from(first ? '{}' : '}'));
  return Buffer.concat(parts);
}
