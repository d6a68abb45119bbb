// Obfuscation seen on a line: a script that unpacks itself, and long encoded blobs kept in a script. What a line
// hides by string building or encoding is found by the other rules on its views (text-views.ts) and reported once
// more as evasion (skill-rules.ts).
import type { LineRule } from './line-rule';

export const obfuscationRules: LineRule[] = [
  {
    id: 'SC-OB-SELF-EXTRACTING',
    category: 'obfuscation',
    title: 'Unpacks a payload carried inside itself',
    why: 'A script that cuts an archive or program out of its own file hides that payload from review; unpack it by hand and audit what is inside, or remove the skill.',
    keywords: ['$0', '__archive', '__payload', 'uudecode', 'makeself', 'sharutils'],
    patterns: [
      /\b(tail|sed|awk|dd)\b[^\n]*["']?\$0["']?[^\n]*\|\s*(tar|gunzip|gzip|base64|sh|bash|python3?|unzip|xz)\b/,
      /\btail\s+(-n\s*)?\+?\d+\s+["']?\$0["']?/,
      /^__(ARCHIVE|PAYLOAD|BINARY|DATA)(_BELOW)?__\s*$/m,
      /\buudecode\b|\bmakeself\b/,
    ],
    severity: { 'doc-code': 'high', script: 'high' },
  },
];
