// The stored audit as SARIF 2.1.0 (code-scanning tools and CI), JSON, or Markdown for a person. Suppressed findings
// stay in every report, marked with the curator's reason (SARIF: result.suppressions), never silently dropped.
import type { AuditReportFormat, AuditRuleInfo, Severity, StoredFinding } from '../../shared/api/audit';
import { auditRules } from './rules-catalog';

export interface ReportSkill {
  skillId: number;
  name: string;
  findings: StoredFinding[];
}

const level = (s: Severity): 'error' | 'warning' | 'note' =>
  s === 'critical' || s === 'high' ? 'error' : s === 'medium' ? 'warning' : 'note';

/** GitHub code scanning reads security-severity (0-10) to rank security results. */
const securitySeverity: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '0.0',
};

export function sarifReport(skills: readonly ReportSkill[], version: string): string {
  const used = new Set(skills.flatMap((s) => s.findings.map((f) => f.ruleId)));
  const rules: AuditRuleInfo[] = auditRules.filter((r) => used.has(r.id));
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const results = skills.flatMap((s) =>
    s.findings.map((f) => ({
      ruleId: f.ruleId,
      ruleIndex: index.get(f.ruleId) ?? -1,
      level: level(f.severity),
      message: { text: `${f.excerpt} — ${f.why}${f.seenAfter ? ` (seen ${f.seenAfter})` : ''}` },
      locations: [
        {
          physicalLocation: {
            artifactLocation: {
              uri: `${encodeURIComponent(s.name)}/${f.file.split('/').map(encodeURIComponent).join('/')}`,
            },
            ...(f.line !== null ? { region: { startLine: f.line } } : {}),
          },
        },
      ],
      partialFingerprints: {
        'skillCuratorFinding/v1': `${f.skillId}:${f.ruleId}:${f.file}:${f.excerpt}`.slice(0, 300),
      },
      ...(f.suppressed
        ? {
            suppressions: [
              {
                kind: 'external',
                status: 'accepted',
                justification: `${f.suppressed.reason} (${f.suppressed.scope})`,
              },
            ],
          }
        : {}),
      properties: { severity: f.severity, category: f.category, skill: s.name, skillId: s.skillId },
    })),
  );
  return JSON.stringify(
    {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'skill-curator-audit',
              version,
              informationUri: 'https://github.com/skill-curator/skill-curator/blob/main/docs/audit.md',
              rules: rules.map((r) => ({
                id: r.id,
                name: r.id
                  .replace(/^SC-/, '')
                  .toLowerCase()
                  .replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
                shortDescription: { text: r.title },
                fullDescription: { text: r.why },
                help: { text: r.why },
                defaultConfiguration: { level: level(r.severity) },
                properties: {
                  category: r.category,
                  'security-severity': securitySeverity[r.severity],
                  tags: ['security', r.category],
                },
              })),
            },
          },
          results,
        },
      ],
    },
    null,
    2,
  );
}

export function jsonReport(skills: readonly ReportSkill[]): string {
  return JSON.stringify({ format: 'skill-curator-audit/1', skills }, null, 2);
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdownReport(skills: readonly ReportSkill[]): string {
  const lines = ['# Audit', ''];
  const flagged = skills.filter((s) => s.findings.length > 0);
  lines.push(`${skills.length} skills, ${flagged.length} with findings.`, '');
  for (const s of flagged) {
    lines.push(
      `## ${s.name}`,
      '',
      '| severity | rule | where | what | why |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const f of s.findings)
      lines.push(
        `| ${f.severity}${f.suppressed ? ` (suppressed: ${cell(f.suppressed.reason)})` : ''} | ${f.ruleId} | ${cell(f.file)}${f.line ? `:${f.line}` : ''} | \`${cell(f.excerpt).replace(/`/g, "'")}\`${f.seenAfter ? ` (${f.seenAfter})` : ''} | ${cell(f.why)} |`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

export function auditReport(
  format: AuditReportFormat,
  skills: readonly ReportSkill[],
  version: string,
): string {
  return format === 'sarif'
    ? sarifReport(skills, version)
    : format === 'json'
      ? jsonReport(skills)
      : markdownReport(skills);
}
