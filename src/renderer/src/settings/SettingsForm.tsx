// One settings group as form controls, generated from the schema's fields.
import type { Field } from './schema-fields';
import { labelFor } from './schema-fields';

type Values = Record<string, unknown>;

export function FieldControl({
  field,
  value,
  onChange,
  path,
}: {
  field: Field;
  value: unknown;
  onChange: (v: unknown) => void;
  path: string;
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
          />
        ))}
      </fieldset>
    );
  }
  const label = (
    <label htmlFor={id}>
      {labelFor(field.key)}
      {field.kind === 'number' && (field.min !== undefined || field.max !== undefined) && (
        <span className="muted small">
          {' '}
          ({field.min ?? '…'}–{field.max ?? '…'})
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
    case 'number':
      control = (
        <input
          id={id}
          name={path}
          type="number"
          min={field.min}
          max={field.max}
          step={field.integer ? 1 : 'any'}
          value={typeof value === 'number' ? value : ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      );
      break;
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
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className="field">
      {label}
      {control}
    </div>
  );
}
