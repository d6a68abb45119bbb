// The Library's audit filter: any, clean, at least a severity, or never audited (SkillFilters.auditAtLeast/auditState).
import type { SkillFilters } from '../../../shared/api';

export type AuditFilter = '' | 'clean' | 'unaudited' | 'low' | 'medium' | 'high' | 'critical';

const choices: [AuditFilter, string][] = [
  ['', 'Audit: any'],
  ['clean', 'Audit: clean'],
  ['low', 'Audit: low+'],
  ['medium', 'Audit: medium+'],
  ['high', 'Audit: high+'],
  ['critical', 'Audit: critical'],
  ['unaudited', 'Audit: not audited'],
];

export function auditFilters(value: AuditFilter): Pick<SkillFilters, 'auditAtLeast' | 'auditState'> {
  if (value === '') return {};
  if (value === 'clean' || value === 'unaudited') return { auditState: value };
  return { auditAtLeast: value };
}

export function AuditFilterSelect({
  value,
  onChange,
}: {
  value: AuditFilter;
  onChange(value: AuditFilter): void;
}) {
  return (
    <select value={value} onChange={(e) => onChange(e.target.value as AuditFilter)} aria-label="Audit">
      {choices.map(([v, label]) => (
        <option key={v} value={v}>
          {label}
        </option>
      ))}
    </select>
  );
}
