// JSON syntax errors that say where, never what: V8's messages quote the start of the text ("Unexpected token 'r',
// "root:$6$ab"... is not valid JSON"), and the text may be any file a host was asked to read.

/** JSON.parse, with an error message that names no character of the text. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: jsonSyntaxMessage(error) };
  }
}

export function jsonSyntaxMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const position = /at position (\d+)/.exec(message);
  if (/Unexpected end of JSON input|Unterminated/.test(message)) return 'not valid JSON (it ends too early)';
  if (position) return `not valid JSON (at column ${Number(position[1]) + 1})`;
  return 'not valid JSON';
}
