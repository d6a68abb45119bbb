// The pieces a settings rewrite is shown and written with: the diff a person reads first, and a file's own indent
// and line ending kept when it is written back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/core/sources/line-diff';
import { readSettings, settingsText } from '../../src/core/install/settings-file';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'curator-settings-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('settings rewrite', () => {
  it('diffs the changed middle with three lines of context, old lines before new ones', () => {
    const before = ['{', '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 4', '}', ''].join('\n');
    const after = ['{', '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 4,', '  "e": 5', '}', ''].join('\n');
    expect(unifiedDiff(before, after, 's.json')).toBe(
      [
        '--- s.json',
        '+++ s.json',
        '@@ -2,5 +2,6 @@',
        '   "a": 1,',
        '   "b": 2,',
        '   "c": 3,',
        '-  "d": 4',
        '+  "d": 4,',
        '+  "e": 5',
        ' }',
        '',
      ].join('\n'),
    );
    expect(unifiedDiff('', '{}\n', 'new.json')).toBe('--- new.json\n+++ new.json\n@@ -0,0 +1,1 @@\n+{}\n');
    expect(unifiedDiff('same\n', 'same\n', 'x')).toBe('');
  });

  it("writes back in the file's own tab indent, CRLF line ending and missing final newline, keeping key order", async () => {
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, '{\r\n\t"z": 1,\r\n\t"a": {\r\n\t\t"x": true\r\n\t}\r\n}');
    const read = await readSettings(file);
    expect(settingsText(read, read.value)).toBe('{\r\n\t"z": 1,\r\n\t"a": {\r\n\t\t"x": true\r\n\t}\r\n}');
    writeFileSync(file, '{"__proto__": {"polluted": true}, "b": 1}\n');
    const odd = await readSettings(file);
    expect(Object.keys(odd.value)).toEqual(['__proto__', 'b']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
