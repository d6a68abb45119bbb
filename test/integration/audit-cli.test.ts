// The real CLI for CI use: `audit` with --fail-on exit codes, `audit show`, `audit suppress`, and a SARIF report that
// validates against the OASIS SARIF 2.1.0 schema, with rules[], locations, and suppressions carried as SARIF ones.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../fixtures/run-cli';

const corpus = path.resolve('test/fixtures/audit-corpus');
const schema = JSON.parse(readFileSync('test/fixtures/sarif/sarif-schema-2.1.0.json', 'utf8')) as object;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'curator-cli-audit-'));
  cpSync(path.join(corpus, 'malicious', 'aws-cost-report'), path.join(dir, 'skills', 'aws-cost-report'), {
    recursive: true,
  });
  cpSync(path.join(corpus, 'benign', 'ssh-key-setup'), path.join(dir, 'skills', 'ssh-key-setup'), {
    recursive: true,
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]): Promise<CliResult> => runCli(path.join(dir, 'data'), args);

interface SarifLog {
  runs: {
    tool: { driver: { rules: { id: string }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      locations: {
        physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } };
      }[];
      suppressions?: { kind: string; justification: string }[];
    }[];
  }[];
}

describe('audit CLI', () => {
  it('fails CI on a critical finding, names it, and writes a schema-valid SARIF with the suppression carried', async () => {
    const imported = await cli('import', path.join(dir, 'skills'));
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/audit of 2 skills: 1 critical, .*1 low/);
    expect(imported.stdout).toMatch(/flagged high or critical: aws-cost-report \(critical\)/);

    // Default --fail-on is the install gate (critical): the malicious skill fails the run, by name.
    const run = await cli('audit');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/aws-cost-report +1 critical/);
    expect(run.stderr).toMatch(/1 skill with unsuppressed findings at critical or above: aws-cost-report/);
    expect((await cli('audit', '--fail-on', 'off')).code).toBe(0);
    const benignOnly = await cli('audit', '--skills', 'ssh-key-setup', '--fail-on', 'medium');
    expect(benignOnly.code, benignOnly.stderr).toBe(0);
    expect(benignOnly.stdout).toMatch(/ssh-key-setup \(#\d+\): audited .* worst unsuppressed: low/);
    expect((await cli('audit', '--skills', 'ssh-key-setup', '--fail-on', 'low')).code).toBe(1);

    const shown = await cli('--json', 'audit', 'show', 'ssh-key-setup');
    const low = (JSON.parse(shown.stdout) as { findings: { id: number; ruleId: string; line: number }[] })
      .findings[0]!;
    expect(low).toMatchObject({ ruleId: 'SC-EX-SECRET-READ', line: 16 });
    expect((await cli('audit', 'suppress', String(low.id), '--reason', 'x')).stderr).toMatch(/Say why/);
    const suppressed = await cli(
      'audit',
      'suppress',
      String(low.id),
      '--reason',
      'tells the user where ssh-keygen puts the key',
    );
    expect(suppressed.code, suppressed.stderr).toBe(0);
    expect((await cli('audit', '--skills', 'ssh-key-setup', '--fail-on', 'low')).code).toBe(0);

    const out = path.join(dir, 'audit.sarif');
    const report = await cli('audit', '--fail-on', 'off', '--out', out);
    expect(report.code, report.stderr).toBe(0);
    const sarif = JSON.parse(readFileSync(out, 'utf8')) as SarifLog;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const valid = ajv.validate(schema, sarif);
    expect(ajv.errors ?? [], 'SARIF schema errors').toEqual([]);
    expect(valid).toBe(true);

    const run0 = sarif.runs[0]!;
    const ruleIds = run0.tool.driver.rules.map((r) => r.id);
    expect(ruleIds).toContain('SC-EX-EXFILTRATION-CHAIN');
    for (const r of run0.results) expect(ruleIds[r.ruleIndex]).toBe(r.ruleId);
    const chain = run0.results.find((r) => r.ruleId === 'SC-EX-EXFILTRATION-CHAIN');
    expect(chain?.level).toBe('error');
    expect(chain?.locations[0]?.physicalLocation).toMatchObject({
      artifactLocation: { uri: 'aws-cost-report/scripts/report.py' },
      region: { startLine: 27 },
    });
    const secret = run0.results.find((r) => r.ruleId === 'SC-EX-SECRET-READ');
    expect(secret?.suppressions).toEqual([
      expect.objectContaining({
        kind: 'external',
        justification: expect.stringMatching(/where ssh-keygen puts the key/),
      }),
    ]);

    // The same report in the other formats; an existing file is not replaced without --overwrite.
    expect((await cli('audit', '--fail-on', 'off', '--out', out)).stderr).toMatch(/exists|overwrite/i);
    const md = await cli('audit', '--fail-on', 'off', '--format', 'md');
    expect(md.stdout).toMatch(/aws-cost-report/);
    const json = JSON.parse((await cli('audit', '--fail-on', 'off', '--format', 'json')).stdout) as {
      skills: { name: string }[];
    };
    expect(json.skills.map((s) => s.name).sort()).toEqual(['aws-cost-report', 'ssh-key-setup']);
  });

  it('lists every rule with its why, and refuses a bad severity as an option error', async () => {
    const rules = await cli('audit', 'rules');
    expect(rules.code).toBe(0);
    expect(rules.stdout).toMatch(/SC-EX-EXFILTRATION-CHAIN +critical +exfiltration: /);
    const bad = await cli('audit', '--fail-on', 'severe');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/A severity \(or off\) is one of info, low, medium, high, critical, off/);
  });
});
