// Reads the zod settings schema into a tree of form fields, so the Settings screen shows every tunable it defines.
import { settingsSchema } from '../../../shared/settings';
import { localModelsHeading } from '../../../shared/settings-places';

export type Field =
  | { kind: 'group'; key: string; fields: Field[] }
  | {
      kind: 'number';
      key: string;
      min?: number;
      max?: number;
      integer: boolean;
      defaultValue?: number | null;
      /** null is a value (an empty box): e.g. an abstain threshold that is off. */
      nullable?: boolean;
    }
  | { kind: 'string'; key: string; defaultValue?: string }
  | { kind: 'boolean'; key: string; defaultValue?: boolean }
  | { kind: 'enum'; key: string; options: string[]; defaultValue?: string };

interface SchemaLike {
  def: { type: string; innerType?: SchemaLike; defaultValue?: unknown };
  shape?: Record<string, SchemaLike>;
  options?: string[];
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
}

function unwrap(schema: SchemaLike): { schema: SchemaLike; defaultValue: unknown; nullable: boolean } {
  let s = schema;
  let defaultValue: unknown;
  let nullable = false;
  while (
    (s.def.type === 'default' ||
      s.def.type === 'prefault' ||
      s.def.type === 'optional' ||
      s.def.type === 'nullable') &&
    s.def.innerType
  ) {
    if (s.def.type === 'default') defaultValue = s.def.defaultValue;
    if (s.def.type === 'nullable') nullable = true;
    s = s.def.innerType;
  }
  return { schema: s, defaultValue, nullable };
}

function finite(n: number | null | undefined): number | undefined {
  return n !== null && n !== undefined && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER
    ? n
    : undefined;
}

export function describeSchema(schema: SchemaLike, key: string): Field {
  const { schema: s, defaultValue, nullable } = unwrap(schema);
  switch (s.def.type) {
    case 'object':
      return {
        kind: 'group',
        key,
        fields: Object.entries(s.shape ?? {}).map(([k, child]) => describeSchema(child, k)),
      };
    case 'number':
      return {
        kind: 'number',
        key,
        min: finite(s.minValue),
        max: finite(s.maxValue),
        integer: s.isInt === true,
        defaultValue: defaultValue as number | null | undefined,
        ...(nullable ? { nullable: true } : {}),
      };
    case 'boolean':
      return { kind: 'boolean', key, defaultValue: defaultValue as boolean | undefined };
    case 'enum':
      return {
        kind: 'enum',
        key,
        options: s.options ?? [],
        defaultValue: defaultValue as string | undefined,
      };
    default:
      return { kind: 'string', key, defaultValue: defaultValue as string | undefined };
  }
}

export function settingsFields(): Field[] {
  const root = describeSchema(settingsSchema() as unknown as SchemaLike, '');
  return root.kind === 'group' ? root.fields : [];
}

const labels: Record<string, string> = {
  engines: 'Scoring engines',
  models: localModelsHeading,
  remote: 'Remote model endpoints',
  selection: 'Selection',
  llm: 'LLM endpoint',
  import: 'Import limits',
  audit: 'Audit',
  usage: 'Agent usage',
  ui: 'Appearance',
  recallK: 'K: candidates passed on by recall',
  abstainBelow: 'No skill fits: abstain thresholds',
  rankedK: 'k for ranked variants',
  crossEncoderMaxTokens: 'Cross-encoder token budget',
  crossEncoderAlignMaxTokens: 'Cross-encoder token budget, alignment pairs',
  llmSelectorBodyChars: 'Body characters per candidate (LLM selector)',
  baseURL: 'Base URL',
  timeoutMs: 'Timeout',
  maxRetries: 'Max retries',
  promptPricePerMTok: 'Prompt price per million tokens',
  completionPricePerMTok: 'Completion price per million tokens',
  maxSkillMdBytes: 'Largest SKILL.md',
  maxZipEntryBytes: 'Largest zip entry',
  maxZipTotalBytes: 'Largest zip expansion',
  crossEncoder: 'Cross-encoder',
  dtype: 'Data type',
};

export function labelFor(key: string): string {
  return labels[key] ?? key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}
