// Rules over a skill as a whole: what no single line shows (a secret read in one file and sent in another), what is
// not text (binaries, archives), invisible characters, hidden-by-evasion findings, typosquats, and the front matter's
// claims (allowed-tools wider than the body needs, a description that claims every task).
import type { AuditFinding } from '../../shared/api/audit';
import { severityRank } from '../../shared/api/audit';
import { excerptOf } from './scan-file';
import { installedNames, typosquatOf } from './typosquats';

export interface PackageText {
  path: string;
  /** null for a file that is not text. */
  text: string | null;
  bytes: Buffer;
}

/** Bidirectional controls and tag characters reorder or hide text; a stray zero-width space in copied docs does not. */
const reordering = /[\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/;
const invisibleChar =
  /[\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u00ad]|\udb40[\udc00-\udc7f]/;

export function invisibleCharacters(files: readonly PackageText[]): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const f of files) {
    if (f.text === null) continue;
    const lines = f.text.split('\n');
    const at = lines.findIndex(
      (l) => invisibleChar.test(l) || /[^\s\u0080-\uffff]\u200d[^\s\u0080-\uffff]/.test(l),
    );
    if (at < 0) continue;
    out.push({
      ruleId: 'SC-PI-INVISIBLE-CHARACTERS',
      category: 'prompt-injection',
      severity: lines.some((l) => reordering.test(l)) ? 'high' : 'low',
      file: f.path,
      line: at + 1,
      excerpt: excerptOf(
        lines[at]!.replace(
          /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\u00ad]/g,
          (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase()}>`,
        ),
      ),
      why: 'Zero-width and bidirectional control characters make text read differently for the agent than on screen; look at the file with them shown and remove them.',
    });
  }
  return out;
}

const magic: { bytes: number[]; what: string; severity: 'high' | 'medium' }[] = [
  { bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'a Linux program (ELF)', severity: 'high' },
  { bytes: [0x4d, 0x5a], what: 'a Windows program (PE)', severity: 'high' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], what: 'a macOS program (Mach-O)', severity: 'high' },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], what: 'a macOS program (Mach-O)', severity: 'high' },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], what: 'a macOS universal program or Java class', severity: 'high' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive', severity: 'medium' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive', severity: 'medium' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], what: 'a 7z archive', severity: 'medium' },
  { bytes: [0x52, 0x61, 0x72, 0x21], what: 'a rar archive', severity: 'medium' },
];

/** Executables and archives in the package: nothing in them can be read by a reviewer or by this audit. */
export function opaqueFiles(files: readonly PackageText[]): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const f of files) {
    const kind = magic.find((m) => m.bytes.every((b, i) => f.bytes[i] === b));
    // Office files and jar-like formats are zips too; they are documents, not payloads, outside scripts/.
    if (!kind || (kind.what === 'a zip archive' && /\.(docx|xlsx|pptx|odt|ods|epub)$/i.test(f.path)))
      continue;
    out.push({
      ruleId: kind.severity === 'high' ? 'SC-OB-BINARY-PROGRAM' : 'SC-OB-ARCHIVE',
      category: 'obfuscation',
      severity: kind.severity,
      file: f.path,
      line: null,
      excerpt: `${f.path}: ${kind.what}, ${f.bytes.length} bytes`,
      why:
        kind.severity === 'high'
          ? 'A compiled program in a skill cannot be reviewed and runs with the user’s rights; ship its source instead, or remove the skill.'
          : 'An archive inside the package is not audited; unpack it, review what is inside, and ship the files themselves.',
    });
  }
  return out;
}

/** Relative links and paths in the documents that climb out of the package. */
export function linksOutOfPackage(files: readonly PackageText[]): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const f of files) {
    if (f.text === null || !/\.(md|markdown|mdx|txt)$/i.test(f.path)) continue;
    const depth = f.path.split('/').length - 1;
    const lines = f.text.split('\n');
    for (const [i, l] of lines.entries())
      for (const m of l.includes('../')
        ? l.matchAll(/\]\(\s*((?:\.\.\/)+)[^)]*\)|(?:^|\s)((?:\.\.\/){2,})[\w.-]/g)
        : []) {
        const ups = (m[1] ?? m[2] ?? '').split('../').length - 1;
        if (ups <= depth) continue;
        out.push({
          ruleId: 'SC-OB-LINK-OUT-OF-PACKAGE',
          category: 'obfuscation',
          severity: 'medium',
          file: f.path,
          line: i + 1,
          excerpt: excerptOf(l),
          why: 'A path that climbs out of the skill folder points the agent at files the package does not ship (and that were not audited); keep references inside the package.',
        });
        break;
      }
  }
  return out;
}

/** The packages a line names: an install command, a requirements file's line, a package.json dependency. */
function namedPackages(file: string, line: string): { name: string; registry: 'pip' | 'npm' }[] {
  if (/(^|\/)requirements[\w.-]*\.txt$/.test(file)) {
    const spec = /^\s*([A-Za-z0-9][\w.-]*)/.exec(line)?.[1];
    return spec && !line.trim().startsWith('-') ? [{ name: spec, registry: 'pip' }] : [];
  }
  if (/(^|\/)package\.json$/.test(file)) {
    const dep = /^\s*"(@?[\w./-]+)"\s*:\s*"[~^<>=*\d]/.exec(line)?.[1];
    return dep ? [{ name: dep, registry: 'npm' }] : [];
  }
  return installedNames(line);
}

export function typosquats(files: readonly PackageText[]): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const f of files) {
    if (f.text === null) continue;
    for (const [i, l] of f.text.split('\n').entries())
      for (const { name, registry } of namedPackages(f.path, l)) {
        const near = typosquatOf(name, registry);
        if (!near) continue;
        out.push({
          ruleId: 'SC-SC-TYPOSQUAT',
          category: 'supply-chain',
          severity: 'high',
          file: f.path,
          line: i + 1,
          excerpt: excerptOf(l),
          why: `"${name}" is one letter away from the popular ${registry} package "${near}", the usual shape of a typosquat; install "${near}" if that was meant.`,
        });
      }
  }
  return out;
}

const dependencyFields = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const installHooks = ['preinstall', 'install', 'postinstall', 'prepare'];
/** A dependency fetched from a URL, a Git remote or a tarball rather than a registry version. */
const urlSpec = /^(https?:|git\+|git:|ssh:|github:|gitlab:|bitbucket:)/i;

/** A package.json the skill ships: dependencies from URLs, and scripts npm runs on install. */
export function packageManifests(files: readonly PackageText[]): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const f of files) {
    if (f.text === null || !/(^|\/)package\.json$/.test(f.path)) continue;
    let manifest: Record<string, unknown>;
    try {
      manifest = JSON.parse(f.text) as Record<string, unknown>;
    } catch {
      continue;
    }
    const lines = f.text.split('\n');
    const at = (key: string, value: string) => {
      const i = lines.findIndex((l) => l.includes(JSON.stringify(key)) && l.includes(value.slice(0, 40)));
      return i < 0
        ? { line: null, excerpt: `"${key}": "${value}"` }
        : { line: i + 1, excerpt: excerptOf(lines[i]!) };
    };
    for (const field of dependencyFields) {
      const deps = manifest[field];
      if (!deps || typeof deps !== 'object') continue;
      for (const [name, spec] of Object.entries(deps as Record<string, unknown>))
        if (typeof spec === 'string' && urlSpec.test(spec.trim()))
          out.push({
            ruleId: 'SC-SC-INSTALL-FROM-URL',
            category: 'supply-chain',
            severity: 'high',
            file: f.path,
            ...at(name, spec),
            why: `"${name}" comes from ${spec.split('/').slice(0, 3).join('/')} rather than a registry version: its code can change under the same name at any time; pin a published version.`,
          });
    }
    const scripts = manifest.scripts;
    if (scripts && typeof scripts === 'object')
      for (const hook of installHooks) {
        const command = (scripts as Record<string, unknown>)[hook];
        if (typeof command === 'string')
          out.push({
            ruleId: 'SC-SC-INSTALL-HOOK',
            category: 'supply-chain',
            severity: 'medium',
            file: f.path,
            ...at(hook, command),
            why: `npm runs "${hook}" by itself when the package is installed; read what "${command.slice(0, 80)}" does, or install with --ignore-scripts.`,
          });
      }
  }
  return out;
}

const secretRules = new Set(['SC-EX-SECRET-READ', 'SC-EX-ENV-DUMP']);
const sendRules = new Set(['SC-EX-SEND-DATA', 'SC-EX-DNS-LEAK']);

/** A secret read anywhere and data sent anywhere in the same skill: the chain, reported at the send. */
export function exfiltrationChain(findings: readonly AuditFinding[]): AuditFinding[] {
  const reads = findings.filter(
    (f) => secretRules.has(f.ruleId) && severityRank(f.severity) >= severityRank('medium'),
  );
  if (reads.length === 0) return [];
  // In the same file: a reference that documents an API call beside a paragraph on credentials is not a chain.
  const sends = findings.filter(
    (f) =>
      (sendRules.has(f.ruleId) || f.category === 'remote-code-execution') &&
      reads.some((r) => r.file === f.file),
  );
  return sends.slice(0, 3).map((send) => ({
    ruleId: 'SC-EX-EXFILTRATION-CHAIN',
    category: 'exfiltration',
    severity: 'critical',
    file: send.file,
    line: send.line,
    excerpt: send.excerpt,
    why: `This file reads private data (line ${reads.find((r) => r.file === send.file)!.line ?? '?'}: ${reads.find((r) => r.file === send.file)!.excerpt.slice(0, 60)}) and sends data out here: that is how credentials are stolen; remove the skill.`,
    ...(send.seenAfter ? { seenAfter: send.seenAfter } : {}),
  }));
}

const evasions = /decoding|variables|quotes|escapes|reversing|look-alike|invisible/;

/** A finding that only an undone evasion showed: the hiding is itself a finding, once per line. */
export function evasionFindings(findings: readonly AuditFinding[]): AuditFinding[] {
  const seen = new Set<string>();
  const out: AuditFinding[] = [];
  for (const f of findings) {
    if (!f.seenAfter || !evasions.test(f.seenAfter) || severityRank(f.severity) < severityRank('medium'))
      continue;
    const key = `${f.file}:${f.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      ruleId: 'SC-OB-HIDDEN-COMMAND',
      category: 'obfuscation',
      severity: 'high',
      file: f.file,
      line: f.line,
      excerpt: f.excerpt,
      why: `This line hides what it does (seen ${f.seenAfter}); honest code has no reason to, so read the decoded text and remove the skill if it is what the other finding says.`,
      seenAfter: f.seenAfter,
    });
  }
  return out;
}

function toolList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string') return [];
  return value.match(/[A-Za-z*][\w*-]*(\([^)]*\))?/g) ?? [];
}

/** allowed-tools wider than the body shows a use for, and descriptions that claim every task. */
export function claims(
  frontMatter: Record<string, unknown>,
  body: string,
  skillMdLineOf: (key: string) => number | null,
): AuditFinding[] {
  const out: AuditFinding[] = [];
  const tools = toolList(frontMatter['allowed-tools']);
  const shell =
    /```(bash|sh|shell|zsh|console|powershell|pwsh)?\s*\n|^\s*\$\s+\w|\bscripts\/\S+\.(sh|py|js|ps1)\b|\brun\b[^.\n]{0,30}`[^`]+`/im.test(
      body,
    );
  const wide: string[] = [];
  for (const t of tools) {
    const name = t.replace(/\(.*$/, '');
    const scope = /\(([^)]*)\)/.exec(t)?.[1]?.trim();
    if (
      t === '*' ||
      ((name === 'Bash' || name === 'Shell') && (!scope || /^\*(:\*)?$/.test(scope)) && !shell)
    )
      wide.push(t);
    else if (
      /^Web(Fetch|Search)$/.test(name) &&
      !/https?:\/\/|\bweb\b|\bfetch|\bonline\b|\bsearch\b|\burl\b|\bsite\b|\bapi\b/i.test(body)
    )
      wide.push(t);
    else if (
      /^(Write|Edit|MultiEdit|NotebookEdit)$/.test(name) &&
      !/\b(write|writes|save|saves|create|creates|edit|edits|update|modify|generate|output file|file)\b/i.test(
        body,
      )
    )
      wide.push(t);
  }
  if (wide.length > 0)
    out.push({
      ruleId: 'SC-PM-TOOLS-WIDER-THAN-BODY',
      category: 'permissions',
      severity: wide.includes('*') ? 'high' : 'medium',
      file: 'SKILL.md',
      line: skillMdLineOf('allowed-tools'),
      excerpt: `allowed-tools: ${tools.join(' ')}`,
      why: `allowed-tools grants ${wide.join(', ')} without asking, but the body shows no use for ${wide.length === 1 ? 'it' : 'them'}; narrow allowed-tools to what the steps run (e.g. Bash(git:*)).`,
    });
  const description = typeof frontMatter.description === 'string' ? frontMatter.description : '';
  const grab =
    /\b(use|invoke|load|apply|activate|run)\b[^.]{0,30}\b(for|on|in)\s+(all|every|any)\s+(tasks?|requests?|questions?|prompts?|messages?|conversations?|situations?)\b|\balways\s+(use|invoke|load|activate|run|apply)\s+(this|it|me)\b(?![^.]{0,60}\b(when|whenever|for|if|while|on|in|unless)\b)|\bbefore\s+(anything|any other|every|all other)\b|\b(all|every)\s+(tasks?|requests?)\b[^.]{0,20}\b(must|should)\s+use\b|\bhighest priority\b|\buse (this skill )?first\b/i;
  if (grab.test(description))
    out.push({
      ruleId: 'SC-PM-CLAIMS-EVERY-TASK',
      category: 'permissions',
      severity: 'high',
      file: 'SKILL.md',
      line: skillMdLineOf('description'),
      excerpt: excerptOf(`description: ${description}`),
      why: 'A description that claims every task gets the skill picked for work it has nothing to do with, which is how a skill gets its instructions in front of the agent; say what it does and when, specifically.',
    });
  return out;
}
