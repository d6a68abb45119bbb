// The skill against the spec its agent follows: the Agent Skills spec (agentskills.io/specification), Claude Code's
// extension fields, or claude.ai and the Skills API's stricter rules; and the routing metadata an agent picks a skill
// by (a description too short to route on, or one that only repeats the name).
import type { AuditFinding, Severity, SpecProfile } from '../../shared/api/audit';
import { excerptOf } from './scan-file';

const specFields = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];
const claudeCodeFields = [
  'when_to_use',
  'argument-hint',
  'disable-model-invocation',
  'user-invocable',
  'model',
  'context',
  'agent',
  'hooks',
  'paths',
  'shell',
  'effort',
  'version',
];
const reservedWords = ['anthropic', 'claude'];

export const allowedFields = (profile: SpecProfile): string[] =>
  profile === 'claude-code' ? [...specFields, ...claudeCodeFields] : specFields;

export interface LintInput {
  name: string;
  description: string;
  frontMatter: Record<string, unknown>;
  /** The folder the skill came in ('' for a single file). */
  folder: string;
  skillMd: string;
  files: readonly string[];
  lineOf: (key: string) => number | null;
}

function finding(
  ruleId: string,
  category: 'spec' | 'routing',
  severity: Severity,
  line: number | null,
  excerpt: string,
  why: string,
): AuditFinding {
  return { ruleId, category, severity, file: 'SKILL.md', line, excerpt: excerptOf(excerpt), why };
}

const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

export function specLint(input: LintInput, profile: SpecProfile): AuditFinding[] {
  const out: AuditFinding[] = [];
  const { name, description, frontMatter, lineOf } = input;
  const allowed = new Set(allowedFields(profile));
  for (const key of Object.keys(frontMatter))
    if (!allowed.has(key))
      out.push(
        finding(
          'SC-SPEC-UNKNOWN-FIELD',
          'spec',
          'low',
          lineOf(key),
          `${key}: …`,
          `"${key}" is not a front matter field of ${profile === 'claude-code' ? 'the spec or Claude Code' : 'the Agent Skills spec'}; agents ignore it or refuse the skill — move it under metadata.`,
        ),
      );
  const nfkc = name.normalize('NFKC');
  if (nfkc.length > 64 || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(nfkc))
    out.push(
      finding(
        'SC-SPEC-NAME-FORMAT',
        'spec',
        'medium',
        lineOf('name'),
        `name: ${name}`,
        'A name is at most 64 lowercase letters, digits and single hyphens (after NFKC), not starting or ending with a hyphen; rename the skill.',
      ),
    );
  if (input.folder && input.folder !== name)
    out.push(
      finding(
        'SC-SPEC-NAME-FOLDER',
        'spec',
        'medium',
        lineOf('name'),
        `name: ${name} (folder ${input.folder})`,
        'The spec wants the name to equal its folder; agents that load by folder will not find it under this name.',
      ),
    );
  if (description.length < 1 || description.length > 1024)
    out.push(
      finding(
        'SC-SPEC-DESCRIPTION-LENGTH',
        'spec',
        'medium',
        lineOf('description'),
        `description: ${description.slice(0, 80)}`,
        `A description is 1 to 1,024 characters (this one has ${description.length}); agents cut or refuse it.`,
      ),
    );
  const compatibility = frontMatter.compatibility;
  if (typeof compatibility === 'string' && compatibility.length > 500)
    out.push(
      finding(
        'SC-SPEC-COMPATIBILITY-LENGTH',
        'spec',
        'low',
        lineOf('compatibility'),
        `compatibility: ${compatibility.slice(0, 80)}`,
        'compatibility is at most 500 characters; say only what the skill needs to run.',
      ),
    );
  const lines = input.skillMd.split('\n').length;
  if (lines > 500)
    out.push(
      finding(
        'SC-SPEC-SKILL-MD-LENGTH',
        'spec',
        'low',
        null,
        `SKILL.md: ${lines} lines`,
        'The spec asks for SKILL.md under 500 lines, loaded whole when the skill runs; move detail into references/.',
      ),
    );
  const deep = input.files.filter((f) => /^references\/[^/]+\/.+/.test(f));
  if (deep.length > 0)
    out.push({
      ruleId: 'SC-SPEC-REFERENCES-DEPTH',
      category: 'spec',
      severity: 'info',
      file: deep[0]!,
      line: null,
      excerpt: deep.slice(0, 3).join(', '),
      why: 'The spec keeps references one level deep from SKILL.md; agents may not follow a deeper path.',
    });
  if (profile === 'claude-api') {
    for (const [key, value] of [
      ['name', name],
      ['description', description],
    ] as const)
      if (/<\/?[A-Za-z][^>]*>/.test(value))
        out.push(
          finding(
            'SC-SPEC-XML-TAG',
            'spec',
            'medium',
            lineOf(key),
            `${key}: ${value}`,
            `claude.ai and the Skills API refuse XML tags in the ${key}; remove them.`,
          ),
        );
    const reserved = reservedWords.find((w) => words(name).includes(w));
    if (reserved)
      out.push(
        finding(
          'SC-SPEC-RESERVED-WORD',
          'spec',
          'medium',
          lineOf('name'),
          `name: ${name}`,
          `claude.ai and the Skills API refuse names with the reserved word "${reserved}"; rename the skill.`,
        ),
      );
  }
  const d = words(description);
  const n = words(name.replace(/[-_]/g, ' '));
  const extra = d.filter(
    (w) => !n.includes(w) && !['a', 'an', 'the', 'skill', 'for', 'to', 'and', 'of', 'this'].includes(w),
  );
  if (description.length > 0 && (d.length < 6 || description.length < 40 || extra.length < 3))
    out.push(
      finding(
        extra.length < 3 ? 'SC-ROUTE-DESCRIPTION-REPEATS-NAME' : 'SC-ROUTE-DESCRIPTION-VAGUE',
        'routing',
        'low',
        lineOf('description'),
        `description: ${description}`,
        extra.length < 3
          ? 'The description only repeats the name, so an agent cannot tell when to pick this skill over a near-duplicate; say what it does and when to use it.'
          : 'The description is too short to route on; say what the skill does, on what input, and when to use it.',
      ),
    );
  return out;
}
