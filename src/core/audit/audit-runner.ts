// Audits skills of the library: reads each package as the export does (source files unchanged since import, or the
// text the library kept), audits it, and stores the findings. Files it cannot read are findings too.
import { createHash } from 'node:crypto';
import type { Severity, SpecProfile } from '../../shared/api/audit';
import { severities } from '../../shared/api/audit';
import type { CoreContext } from '../context';
import { loadPackages, readPackage } from '../export/package-reader';
import { auditSkill } from './audit-skill';
import { saveAudit } from './audit-store';

export interface AuditRunResult {
  audited: number;
  /** Findings per severity, over the skills audited. */
  findings: Record<Severity, number>;
  /** Skills with a high or critical finding. */
  flagged: { skillId: number; name: string; worst: Severity }[];
  cancelled: boolean;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export async function auditSkills(
  ctx: Pick<CoreContext, 'db' | 'clock'>,
  skillIds: readonly number[],
  profile: SpecProfile,
  options: { signal?: AbortSignal; onProgress?: (done: number) => void } = {},
): Promise<AuditRunResult> {
  const findings = Object.fromEntries(severities.map((s) => [s, 0])) as Record<Severity, number>;
  const flagged: AuditRunResult['flagged'] = [];
  const frontMatterOf = ctx.db.prepare('SELECT front_matter FROM skills WHERE id = ?').pluck();
  let audited = 0;
  for (let i = 0; i < skillIds.length; i += 50) {
    if (options.signal?.aborted) break;
    const { packages } = loadPackages(ctx.db, skillIds.slice(i, i + 50));
    for (const pkg of packages) {
      const { files, missing } = await readPackage(pkg);
      const frontMatter = JSON.parse(
        (frontMatterOf.get(pkg.skillId) as string | undefined) ?? '{}',
      ) as Record<string, unknown>;
      const found = auditSkill(
        {
          name: pkg.name,
          description: pkg.description,
          frontMatter,
          folder: pkg.relPath.split('/').pop() ?? '',
          files,
          unreadable: missing.map((m) => ({ path: m.file, reason: m.reason })),
        },
        profile,
      );
      const hashes = new Map(files.map((f) => [f.path, sha256(f.bytes)]));
      for (const m of missing) hashes.set(m.file, pkg.files.find((f) => f.path === m.file)?.sha256 ?? '');
      saveAudit(ctx.db, pkg.skillId, pkg.contentHash, profile, found, hashes, ctx.clock().toISOString());
      audited++;
      for (const f of found) findings[f.severity]++;
      const worst = found[0]?.severity;
      if (worst === 'high' || worst === 'critical')
        flagged.push({ skillId: pkg.skillId, name: pkg.name, worst });
    }
    options.onProgress?.(Math.min(skillIds.length, i + 50));
  }
  return { audited, findings, flagged, cancelled: options.signal?.aborted ?? false };
}
