// Audits one skill package: every text file through the line rules (scan-file.ts), the package as a whole
// (skill-rules.ts) and the spec lint for the chosen agent (spec-lint.ts). Pure: bytes in, findings out, nothing run.
import type { AuditFinding, SpecProfile } from '../../shared/api/audit';
import { severityRank } from '../../shared/api/audit';
import type { LineRule } from './line-rule';
import { agentControlRules } from './rules-agent-control';
import { commandRules } from './rules-commands';
import { exfiltrationRules } from './rules-exfiltration';
import { obfuscationRules } from './rules-obfuscation';
import { supplyChainRules } from './rules-supply-chain';
import { scanTextFile } from './scan-file';
import {
  claims,
  evasionFindings,
  exfiltrationChain,
  invisibleCharacters,
  linksOutOfPackage,
  opaqueFiles,
  typosquats,
  packageManifests,
  type PackageText,
} from './skill-rules';
import { specLint } from './spec-lint';

/** Bumped when the rules change, so every skill is audited again with them. */
export const AUDIT_RULES_VERSION = 2;

export const lineRules: readonly LineRule[] = [
  ...agentControlRules,
  ...commandRules,
  ...exfiltrationRules,
  ...obfuscationRules,
  ...supplyChainRules,
];

export interface AuditInput {
  name: string;
  description: string;
  frontMatter: Record<string, unknown>;
  folder: string;
  /** SKILL.md first, then the package files as read. */
  files: readonly { path: string; bytes: Buffer }[];
  /** Files the library could not read back (moved or edited at the source): not audited, and said so. */
  unreadable: readonly { path: string; reason: string }[];
}

/** Larger text files are audited up to here; the rest is said to be unaudited. */
const MAX_TEXT_BYTES = 2 * 1024 * 1024;

function asText(bytes: Buffer): string | null {
  const head = bytes.subarray(0, Math.min(bytes.length, 8000));
  if (head.includes(0)) return null;
  return bytes.subarray(0, MAX_TEXT_BYTES).toString('utf8');
}

/** The line of a front matter key in SKILL.md. */
function keyLines(skillMd: string): (key: string) => number | null {
  const lines = skillMd.split('\n');
  return (key) => {
    const i = lines.findIndex((l) => l.startsWith(`${key}:`));
    return i < 0 ? null : i + 1;
  };
}

/** One finding per rule, file and line: the most severe. */
function deduplicated(findings: AuditFinding[]): AuditFinding[] {
  const best = new Map<string, AuditFinding>();
  for (const f of findings) {
    const key = `${f.ruleId}\u0000${f.file}\u0000${f.line}`;
    const known = best.get(key);
    if (!known || severityRank(f.severity) > severityRank(known.severity)) best.set(key, f);
  }
  return [...best.values()];
}

export function auditSkill(input: AuditInput, profile: SpecProfile = 'agentskills'): AuditFinding[] {
  const texts: PackageText[] = input.files.map((f) => ({
    path: f.path,
    bytes: f.bytes,
    text: asText(f.bytes),
  }));
  const findings: AuditFinding[] = [];
  for (const f of texts) {
    if (f.text === null) continue;
    findings.push(...scanTextFile(f.path, f.text, lineRules).findings);
    if (f.bytes.length > MAX_TEXT_BYTES)
      findings.push({
        ruleId: 'SC-UN-FILE-TOO-LARGE',
        category: 'unaudited',
        severity: 'medium',
        file: f.path,
        line: null,
        excerpt: `${f.path}: ${f.bytes.length} bytes`,
        why: `Only the first ${MAX_TEXT_BYTES / 1024 / 1024} MiB of this file were audited; review the rest by hand.`,
      });
  }
  findings.push(...exfiltrationChain(findings), ...evasionFindings(findings));
  findings.push(
    ...invisibleCharacters(texts),
    ...opaqueFiles(texts),
    ...linksOutOfPackage(texts),
    ...typosquats(texts),
    ...packageManifests(texts),
  );
  const skillMd = texts[0]?.text ?? '';
  const lineOf = keyLines(skillMd);
  const body = skillMd.replace(/^---\n[\s\S]*?\n---\n?/, '');
  findings.push(...claims(input.frontMatter, body, lineOf));
  findings.push(
    ...specLint(
      {
        name: input.name,
        description: input.description,
        frontMatter: input.frontMatter,
        folder: input.folder,
        skillMd,
        files: input.files.map((f) => f.path),
        lineOf,
      },
      profile,
    ),
  );
  for (const u of input.unreadable)
    findings.push({
      ruleId: 'SC-UN-FILE-UNREADABLE',
      category: 'unaudited',
      severity: 'medium',
      file: u.path,
      line: null,
      excerpt: u.path,
      why: `This file could not be read (${u.reason}), so it was not audited; import the source again to audit it.`,
    });
  return deduplicated(findings).sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0),
  );
}
