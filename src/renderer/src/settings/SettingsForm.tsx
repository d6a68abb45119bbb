// One settings group as form controls, generated from the schema's fields.
import { inUnit, unitFor, wordsFor } from './field-words';
import type { Field } from './schema-fields';
import { labelFor } from './schema-fields';

type Values = Record<string, unknown>;

export function FieldControl({
  field,
  value,
  onChange,
  path,
  suggestions,
}: {
  field: Field;
  value: unknown;
  onChange: (v: unknown) => void;
  path: string;
  /** Per path, the id of a <datalist> offering values for a text field (e.g. the endpoint's models). */
  suggestions?: Record<string, string>;
}) {
  const id = `setting-${path}`;
  if (field.kind === 'group') {
    const values = (value ?? {}) as Values;
    return (
      <fieldset className="settings-group">
        <legend>{labelFor(field.key)}</legend>
        {field.fields.map((f) => (
          <FieldControl
            key={f.key}
            field={f}
            path={`${path}.${f.key}`}
            value={values[f.key]}
            onChange={(v) => onChange({ ...values, [f.key]: v })}
            suggestions={suggestions}
          />
        ))}
      </fieldset>
    );
  }
  const words = wordsFor(path);
  const unit = field.kind === 'number' ? unitFor(path, field.defaultValue) : undefined;
  const bound = (n: number) => (unit ? inUnit(n, unit) : n.toLocaleString());
  const label = (
    <label htmlFor={id}>
      {words?.label ?? labelFor(field.key)}
      {field.kind === 'number' && (field.min !== undefined || field.max !== undefined) && (
        <span className="muted small">
          {' '}
          ({field.min !== undefined ? bound(field.min) : '…'}–
          {field.max !== undefined ? bound(field.max) : '…'})
        </span>
      )}
    </label>
  );
  let control;
  switch (field.kind) {
    case 'enum':
      control = (
        <select id={id} name={path} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    case 'number': {
      const factor = unit?.factor ?? 1;
      control = (
        <span className="row">
          <input
            id={id}
            name={path}
            type="number"
            min={field.min !== undefined ? field.min / factor : undefined}
            max={field.max !== undefined ? field.max / factor : undefined}
            step={field.integer && !unit ? 1 : 'any'}
            placeholder={field.nullable ? 'off' : undefined}
            value={typeof value === 'number' ? Number((value / factor).toPrecision(12)) : ''}
            onChange={(e) => {
              if (e.target.value === '') return onChange(field.nullable ? null : undefined);
              const stored = Number(e.target.value) * factor;
              onChange(field.integer ? Math.round(stored) : stored);
            }}
          />
          {unit && <span className="muted unit">{unit.name}</span>}
        </span>
      );
      break;
    }
    case 'boolean':
      control = (
        <input
          id={id}
          name={path}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
      break;
    default:
      control = (
        <input
          id={id}
          name={path}
          type="text"
          value={String(value ?? '')}
          list={suggestions?.[path]}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className="field">
      {label}
      {control}
      {words?.help && <span className="muted small field-help">{words.help}</span>}
    </div>
  );
}
