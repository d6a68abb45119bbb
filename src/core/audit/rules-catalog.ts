// Every rule the audit reports, with a stable id, for reports (SARIF's tool.driver.rules) and the UI.
import type { AuditRuleInfo, Severity } from '../../shared/api/audit';
import { severityRank } from '../../shared/api/audit';
import { lineRules } from './audit-skill';

const maxOf = (s: Partial<Record<string, Severity>>): Severity =>
  Object.values(s).reduce<Severity>((m, v) => (v && severityRank(v) > severityRank(m) ? v : m), 'info');

const packageRules: AuditRuleInfo[] = [
  {
    id: 'SC-PI-HIDDEN-TEXT',
    category: 'prompt-injection',
    severity: 'high',
    title: 'Hidden text tells the agent something',
    why: 'Text in HTML comments or invisible markup is written for the agent alone; remove it.',
  },
  {
    id: 'SC-PI-INVISIBLE-CHARACTERS',
    category: 'prompt-injection',
    severity: 'high',
    title: 'Zero-width or bidirectional characters',
    why: 'They make text read differently for the agent than on screen; remove them.',
  },
  {
    id: 'SC-EX-EXFILTRATION-CHAIN',
    category: 'exfiltration',
    severity: 'critical',
    title: 'Reads private data and sends data out',
    why: 'This is how credentials are stolen; remove the skill.',
  },
  {
    id: 'SC-OB-HIDDEN-COMMAND',
    category: 'obfuscation',
    severity: 'high',
    title: 'A command hidden by encoding or string building',
    why: 'Honest code has no reason to hide a command; read the decoded text.',
  },
  {
    id: 'SC-OB-BINARY-PROGRAM',
    category: 'obfuscation',
    severity: 'high',
    title: 'A compiled program in the package',
    why: 'It cannot be reviewed; ship its source instead.',
  },
  {
    id: 'SC-OB-ARCHIVE',
    category: 'obfuscation',
    severity: 'medium',
    title: 'An archive in the package',
    why: 'What is inside is not audited; ship the files themselves.',
  },
  {
    id: 'SC-OB-LINK-OUT-OF-PACKAGE',
    category: 'obfuscation',
    severity: 'medium',
    title: 'A path out of the package',
    why: 'It points the agent at files the package does not ship.',
  },
  {
    id: 'SC-SC-INSTALL-HOOK',
    category: 'supply-chain',
    severity: 'medium',
    title: 'A package.json that runs a script on install',
    why: 'npm runs preinstall, install, postinstall and prepare by itself; read what they do, or install with --ignore-scripts.',
  },
  {
    id: 'SC-SC-TYPOSQUAT',
    category: 'supply-chain',
    severity: 'high',
    title: 'A package name one letter from a popular one',
    why: 'The usual shape of a typosquat.',
  },
  {
    id: 'SC-PM-TOOLS-WIDER-THAN-BODY',
    category: 'permissions',
    severity: 'high',
    title: 'allowed-tools wider than the body needs',
    why: 'Narrow allowed-tools to what the steps run.',
  },
  {
    id: 'SC-PM-CLAIMS-EVERY-TASK',
    category: 'permissions',
    severity: 'high',
    title: 'A description that claims every task',
    why: 'It gets the skill picked for unrelated work.',
  },
  {
    id: 'SC-UN-FILE-UNREADABLE',
    category: 'unaudited',
    severity: 'medium',
    title: 'A file that could not be read',
    why: 'It was not audited; import the source again.',
  },
  {
    id: 'SC-UN-FILE-TOO-LARGE',
    category: 'unaudited',
    severity: 'medium',
    title: 'A file audited only in part',
    why: 'Review the rest by hand.',
  },
  {
    id: 'SC-SPEC-UNKNOWN-FIELD',
    category: 'spec',
    severity: 'low',
    title: 'A front matter field the agent does not know',
    why: 'Move it under metadata.',
  },
  {
    id: 'SC-SPEC-NAME-FORMAT',
    category: 'spec',
    severity: 'medium',
    title: 'A name the spec does not allow',
    why: 'Lowercase letters, digits and single hyphens, at most 64.',
  },
  {
    id: 'SC-SPEC-NAME-FOLDER',
    category: 'spec',
    severity: 'medium',
    title: 'A name unlike its folder',
    why: 'Agents that load by folder will not find it.',
  },
  {
    id: 'SC-SPEC-DESCRIPTION-LENGTH',
    category: 'spec',
    severity: 'medium',
    title: 'A description outside 1–1,024 characters',
    why: 'Agents cut or refuse it.',
  },
  {
    id: 'SC-SPEC-COMPATIBILITY-LENGTH',
    category: 'spec',
    severity: 'low',
    title: 'compatibility over 500 characters',
    why: 'Say only what the skill needs.',
  },
  {
    id: 'SC-SPEC-SKILL-MD-LENGTH',
    category: 'spec',
    severity: 'low',
    title: 'SKILL.md over 500 lines',
    why: 'Move detail into references/.',
  },
  {
    id: 'SC-SPEC-REFERENCES-DEPTH',
    category: 'spec',
    severity: 'info',
    title: 'References more than one level deep',
    why: 'Agents may not follow a deeper path.',
  },
  {
    id: 'SC-SPEC-XML-TAG',
    category: 'spec',
    severity: 'medium',
    title: 'XML tags in name or description',
    why: 'claude.ai and the Skills API refuse them.',
  },
  {
    id: 'SC-SPEC-RESERVED-WORD',
    category: 'spec',
    severity: 'medium',
    title: 'A reserved word in the name',
    why: 'claude.ai and the Skills API refuse it.',
  },
  {
    id: 'SC-ROUTE-DESCRIPTION-VAGUE',
    category: 'routing',
    severity: 'low',
    title: 'A description too short to route on',
    why: 'Say what the skill does and when to use it.',
  },
  {
    id: 'SC-ROUTE-DESCRIPTION-REPEATS-NAME',
    category: 'routing',
    severity: 'low',
    title: 'A description that repeats the name',
    why: 'An agent cannot tell it from a near-duplicate.',
  },
];

export const auditRules: AuditRuleInfo[] = [
  ...lineRules.map((r) => ({
    id: r.id,
    category: r.category,
    severity: maxOf(r.severity),
    title: r.title,
    why: r.why,
  })),
  ...packageRules,
];
