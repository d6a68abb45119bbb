// JSON.parse keeps the last of two equal keys without a word; a file whose keys repeat says two things at once, and a
// reader that must not guess (the install lock file) asks which key repeats before it trusts what was parsed.

/** The first key that appears twice in one object of this (already valid) JSON text, or null. */
export function firstDuplicateKey(text: string): string | null {
  const objects: (Set<string> | null)[] = []; // null for an array
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const token = text.slice(i, end + 1);
      i = end + 1;
      let next = i;
      while (next < text.length && /\s/.test(text[next]!)) next++;
      const keys = objects[objects.length - 1];
      if (text[next] === ':' && keys) {
        const key = JSON.parse(token) as string; // "a" and "\u0061" are one key
        if (keys.has(key)) return key;
        keys.add(key);
      }
      continue;
    }
    if (ch === '{') objects.push(new Set());
    else if (ch === '[') objects.push(null);
    else if (ch === '}' || ch === ']') objects.pop();
    i++;
  }
  return null;
}
