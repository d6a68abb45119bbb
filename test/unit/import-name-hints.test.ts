// The import hint for skills refused only for their "name": each count is of every skill with that problem (the
// newcomer's library: 79 such skills, 77 of them differ from their folder and 13 have capitals, 11 of them both), not
// exclusive counts that read as if 66 differed from their folder.
import { describe, expect, it } from 'vitest';
import type { ImportReport } from '../../src/shared/api';
import { nameReasons, nameRefusals } from '../../src/shared/import-hints';
import { parseRoute, routeHref } from '../../src/renderer/src/app/router';

type Rejected = ImportReport['rejected'][number];
const refused = (...rules: string[]): Rejected => ({
  relPath: 'x',
  file: 'x/SKILL.md',
  issues: rules.map((rule) => ({ rule, severity: 'error', message: rule })) as Rejected['issues'],
});

describe('skills refused only for their name', () => {
  it('counts every skill with each problem, and says how many have both', () => {
    const report = {
      rejected: [
        ...Array.from({ length: 66 }, () => refused('name-matches-folder')),
        ...Array.from({ length: 11 }, () => refused('name-matches-folder', 'name-format')),
        ...Array.from({ length: 2 }, () => refused('name-format')),
        refused('name-length'),
      ],
    };
    const counts = nameRefusals(report);
    expect(counts).toEqual({ total: 79, folder: 77, format: 13 });
    expect(nameReasons(counts)).toBe(
      '77 differ from their folder, 13 have capitals, spaces or other characters the spec forbids (11 have both)',
    );
    // The counts an import's job result carries win over its listed lines (it lists the first 100 only).
    expect(
      nameRefusals({
        rejected: [],
        rejectedForFolderName: 66,
        rejectedForNameFormat: 13,
        rejectedForNameAndFolder: 11,
      }),
    ).toEqual(counts);
  });

  it('speaks of one skill, or of all of them with one problem', () => {
    expect(nameReasons({ total: 1, folder: 1, format: 0 })).toBe('it differs from its folder');
    expect(nameReasons({ total: 2, folder: 0, format: 2 })).toBe(
      'they have capitals, spaces or other characters the spec forbids',
    );
    expect(nameReasons({ total: 1, folder: 1, format: 1 })).toBe(
      'it differs from its folder and has capitals, spaces or other characters the spec forbids',
    );
    expect(nameReasons({ total: 2, folder: 1, format: 1 })).toBe(
      '1 differs from its folder, 1 has capitals, spaces or other characters the spec forbids',
    );
  });

  it('links to the Import limits group of Settings', () => {
    expect(routeHref({ screen: 'settings', section: 'import' })).toBe('#/settings/import');
    expect(parseRoute('#/settings/import')).toEqual({ screen: 'settings', section: 'import' });
    expect(parseRoute('#/settings')).toEqual({ screen: 'settings' });
  });
});
