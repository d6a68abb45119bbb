// The ways a line can hide what it says, undone without running anything: line continuations joined, quotes inside a
// word and ${IFS} removed, shell variables that hold parts of a command put back, "a" + "b" joined, \x and octal
// escapes and reversed strings read, base64 and hex layers decoded (up to three deep), invisible characters dropped
// and look-alike letters folded (NFKC). The rules run on each view; a match seen only in a view says which one.

export interface LogicalLine {
  /** 1-based line the logical line starts on. */
  line: number;
  text: string;
  /** The physical lines it joins, when it continues over several. */
  joined: number;
}

export interface TextView {
  text: string;
  seenAfter: string;
}

const invisible = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]|\udb40[\udc00-\udc7f]/g;

/** Lines joined where they end in a backslash (shell, Python), or a backtick in PowerShell. */
export function logicalLines(text: string, backtick = false): LogicalLine[] {
  const continued = backtick ? /(\\|`)$/ : /\\$/;
  const physical = text.split(/\r\n|\r|\n/);
  const out: LogicalLine[] = [];
  for (let i = 0; i < physical.length; i++) {
    let joinedText = physical[i]!;
    const start = i;
    while (continued.test(joinedText) && !/\\\\$/.test(joinedText) && i + 1 < physical.length) {
      joinedText = joinedText.slice(0, -1) + physical[++i]!.replace(/^\s+/, '');
    }
    out.push({ line: start + 1, text: joinedText, joined: i - start + 1 });
  }
  return out;
}

/**
 * Shell and script variables assigned a plain string in a file, in order, each value with the variables before it put
 * back: `c=cu; c=${c}rl` holds "curl". NAME=value, name = "value", const n = 'v'.
 */
export function stringVariables(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  const assign =
    /(?:^|[\s;&(])(?:export\s+|local\s+|readonly\s+|const\s+|let\s+|var\s+|\$)?([A-Za-z_][A-Za-z0-9_]{0,40})\s*=\s*(?:"([^"\n`]{0,200})"|'([^'\n]{0,200})'|([^\s;"'`()|&<>]{1,200}))/gm;
  const plain = text
    .replace(/["']\s*\+\s*["']/g, '')
    // x=$(printf '\x2f\x65…' …) holds the text the escapes spell.
    .replace(printfCall, (_, _q: string, body: string) => `"${readEscapes(body).replace(/"/g, '')}"`);
  for (const m of plain.matchAll(assign)) {
    const value = withVariables(m[2] ?? m[3] ?? m[4] ?? '', vars);
    if (value !== '') vars.set(m[1]!, value);
  }
  // A variable set to the home folder by an expression (PowerShell, Python, Node) holds "$HOME" for the rules.
  for (const m of text.matchAll(homeAssign)) vars.set(m[1]!, '$HOME');
  return vars;
}

const homeAssign =
  /(?:^|[\s;(])\$?([A-Za-z_]\w{0,40})\s*=\s*(?:\[Environment\]::GetFolderPath\(\s*['"]UserProfile['"]\s*\)|\$env:USERPROFILE\b|\$HOME\b|os\.path\.expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|os\.homedir\(\)|os\.environ\[['"]HOME['"]\])\s*(?:$|[;#\n])/gim;

function printable(s: string): boolean {
  if (s.length < 6) return false;
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 9 || c === 10 || c === 13) ok++;
  }
  return ok / s.length > 0.9 && /[a-z]{2}/i.test(s) && /[\s/.|;:=(-]/.test(s);
}

const base64Run = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}/g;
const hexRun = /\b(?:[0-9a-fA-F]{2}){8,}\b/g;

/** Text decoded from the base64 and hex runs of a line, when it reads as text. */
function decodedRuns(text: string): TextView[] {
  const views: TextView[] = [];
  for (const m of text.matchAll(base64Run)) {
    const run = m[0];
    if (/^[0-9a-f]+$/i.test(run) || run.length % 4 === 1) continue;
    const bytes = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    // PowerShell's -EncodedCommand is base64 of UTF-16LE: every other byte is zero.
    const wide = bytes.length >= 8 && bytes[1] === 0 && bytes[3] === 0 && bytes[5] === 0;
    const decoded = wide ? bytes.toString('utf16le') : bytes.toString('latin1');
    if (printable(decoded)) views.push({ text: decoded, seenAfter: 'after decoding base64' });
  }
  for (const m of text.matchAll(hexRun)) {
    const decoded = Buffer.from(m[0], 'hex').toString('latin1');
    if (printable(decoded)) views.push({ text: decoded, seenAfter: 'after decoding hex' });
  }
  return views;
}

const escapes = /\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\([0-3][0-7]{2})/g;
const printfCall = /\$\(\s*(?:printf|echo(?:\s+-[ne]+)?)\s+(["'])([^"'\n]*)\1(?:\s+[^)\n]*)?\s*\)/g;

const readEscapes = (text: string): string =>
  text.replace(escapes, (_, hex: string, uni: string, oct: string) =>
    String.fromCharCode(parseInt(hex ?? uni ?? oct, hex || uni ? 16 : 8)),
  );

function unescaped(text: string): string {
  return readEscapes(text).replace(printfCall, '$2');
}

function withVariables(text: string, vars: Map<string, string>): string {
  if (vars.size === 0 && !text.includes(':-')) return text;
  const put = (whole: string, name: string) => vars.get(name) ?? whole;
  let out = text;
  // Twice: a variable can hold another ($a holds "${b}x"). ${NAME:-default} reads the default when NAME is not set.
  for (let pass = 0; pass < 2; pass++)
    out = out.replace(
      /\$\{([A-Za-z_]\w*)(?::?[-=]([^}]*))?\}|\$([A-Za-z_]\w*)/g,
      (whole, a: string | undefined, fallback: string | undefined, b: string | undefined) =>
        a !== undefined ? (vars.get(a) ?? fallback ?? whole) : put(whole, b!),
    );
  // Python f-strings name variables in braces.
  if (/\bf["']/.test(out)) out = out.replace(/\{([A-Za-z_]\w*)\}/g, put);
  return out;
}

const reversedHint =
  /\|\s*rev\b|\[::-1\]|\.reverse\(\)|strrev\(|-join\s*\(\s*\$?\w+\[-1\.\.|\[array\]::reverse/i;

const nonAscii = /[\u0080-\uffff]/;
const splitWord =
  /\w["'][\w./-]*["']|["'][\w./-]+["']\w|["']\s*[+.]\s*["']|\$\{?IFS\b|\w\\(?!x[0-9a-fA-F]{2})[a-z]/;
const escapeHint = /\\x[0-9a-fA-F]{2}|\\[0-3][0-7]{2}|\\u[0-9a-fA-F]{4}/;
const encodedHint = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16}/;

/** Whether the line shows a trigger of any view beside itself (most lines do not, and are read as they are). */
export function mayHide(t: string, vars: Map<string, string>): boolean {
  return (
    nonAscii.test(t) ||
    splitWord.test(t) ||
    ((vars.size > 0 || t.includes(':-')) && (t.includes('$') || /\bf["']/.test(t))) ||
    escapeHint.test(t) ||
    reversedHint.test(t) ||
    encodedHint.test(t)
  );
}

/** The views of one logical line, the line itself first; each view is only made when the line shows its trigger. */
export function lineViews(line: LogicalLine, vars: Map<string, string>): TextView[] {
  const views: TextView[] = [
    { text: line.text, seenAfter: line.joined > 1 ? 'after joining a line continuation' : '' },
  ];
  if (!mayHide(line.text, vars)) return views;
  const add = (text: string, seenAfter: string) => {
    if (text !== line.text && !views.some((v) => v.text === text)) views.push({ text, seenAfter });
  };
  const t = line.text;
  if (nonAscii.test(t)) {
    const visible = t.replace(invisible, '');
    if (visible !== t) add(visible, 'after removing invisible characters');
    add(t.normalize('NFKC').replace(invisible, ''), 'after folding look-alike characters');
  }
  let plain = t;
  if (splitWord.test(t)) {
    plain = t
      .replace(/\$\{?IFS\}?/g, ' ')
      .replace(/(\w)(["'])([\w./-]*)\2(?=[\w./-])/g, '$1$3')
      .replace(/(\w)(["'])([\w./-]+)\2/g, '$1$3')
      .replace(/(["'])([\w./-]+)\1(?=\w)/g, '$2')
      .replace(/(\w)\\(?=[a-z])(?!x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})/g, '$1')
      .replace(/["']\s*\+\s*["']/g, '')
      .replace(/["']\s*\.\s*["']/g, '');
    add(plain, 'after removing quotes and separators inside words');
  }
  if ((vars.size > 0 || t.includes(':-')) && (t.includes('$') || /\bf["']/.test(t))) {
    const substituted = withVariables(plain, vars);
    if (substituted !== plain) add(substituted, 'after putting back the variables that hold its parts');
  }
  if (escapeHint.test(t)) {
    const read = unescaped(t);
    add(read, 'after reading \\x and octal escapes');
    if (vars.size > 0) add(withVariables(read, vars), 'after reading \\x and octal escapes');
  }
  if (reversedHint.test(t))
    for (const m of t.matchAll(/["']([^"'\n]{6,})["']/g))
      add([...m[1]!].reverse().join(''), 'after reversing a reversed string');
  if (!encodedHint.test(t) && views.length === 1) return views;
  // Encoded layers, up to three deep: a base64 of a hex of a command is still the command.
  let layer = views.slice();
  for (let depth = 0; depth < 3 && layer.length > 0; depth++) {
    const next: TextView[] = [];
    for (const v of layer)
      for (const d of decodedRuns(v.text)) {
        const seenAfter =
          v.seenAfter && v.seenAfter.includes('decoding')
            ? `${v.seenAfter}, then ${d.seenAfter.replace('after ', '')}`
            : d.seenAfter;
        if (!views.some((w) => w.text === d.text)) {
          views.push({ text: d.text, seenAfter });
          next.push({ text: d.text, seenAfter });
        }
      }
    layer = next;
  }
  return views;
}
