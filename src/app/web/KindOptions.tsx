/**
 * A request kind's option section (spec 2.8: `socket`, `dns`, `mqtt`, `grpc`, `socketio`, `mcp`),
 * or a section of the settings (`stream`, `repeat`, spec 2.7), as a form drawn from the fields the
 * format declares (`GET /api/kinds`, `GET /api/kinds/settings`): text boxes, checkboxes,
 * number boxes, choice lists, and lists of texts or rows. No kind or field is named here. A field
 * set back to its default is left out of the file by the writer, as the CLI writes it.
 */
import type { FormField } from '../shared/api.js';

type Section = Record<string, unknown>;

interface Props {
  /** The section's key in the request file, for labels (`mqtt`). */
  name: string;
  fields: FormField[];
  value: Section | undefined;
  onChange: (value: Section) => void;
}

export function KindOptions({ name, fields, value, onChange }: Props) {
  const section = value ?? {};
  const set = (field: string, next: unknown) => {
    const out: Section = { ...section, [field]: next };
    if (next === undefined) delete out[field];
    onChange(out);
  };
  const simple = fields.filter((f) => f.type !== 'rows' && f.type !== 'texts' && f.type !== 'other');
  const lists = fields.filter((f) => f.type === 'rows' || f.type === 'texts');
  return (
    <div className="kind-options" role="group" aria-label={`${name} options`}>
      <div className="form-grid">
        {simple.map((f) => (
          <label key={f.name} className={f.type === 'flag' ? 'check' : ''}>
            {f.type !== 'flag' && f.name}
            <FieldInput field={f} label={f.name} value={section[f.name]} onChange={(v) => set(f.name, v)} />
            {f.type === 'flag' && f.name}
          </label>
        ))}
      </div>
      {lists.map((f) => (
        <div key={f.name} className="kind-list">
          <h4>{f.name}</h4>
          {f.type === 'texts'
            ? <TextList label={f.name} items={Array.isArray(section[f.name]) ? (section[f.name] as string[]) : []} onChange={(items) => set(f.name, items)} />
            : f.type === 'rows' && <RowList label={f.name} fields={f.fields} rows={Array.isArray(section[f.name]) ? (section[f.name] as Section[]) : []} onChange={(rows) => set(f.name, rows)} />}
        </div>
      ))}
    </div>
  );
}

/** One value: text, a checkbox, a number (empty = the default) or one of the choices. */
function FieldInput({ field, label, value, onChange }: { field: FormField; label: string; value: unknown; onChange: (v: unknown) => void }) {
  switch (field.type) {
    case 'text':
      return <input aria-label={label} spellCheck={false} placeholder={field.default || undefined} value={typeof value === 'string' ? value : (field.default ?? '')} onChange={(e) => onChange(e.target.value === '' && field.default === undefined ? undefined : e.target.value)} />;
    case 'flag':
      return <input type="checkbox" aria-label={label} checked={typeof value === 'boolean' ? value : field.default} onChange={(e) => onChange(e.target.checked)} />;
    case 'number':
      return (
        <input
          type="number"
          aria-label={label}
          min={field.min}
          max={field.max}
          step={field.integer ? 1 : 'any'}
          placeholder={field.default === undefined ? '' : String(field.default)}
          value={typeof value === 'number' ? value : ''}
          // Empty is the default; the format checks the range when the request is saved (a refusal names the field).
          onChange={(e) => {
            const n = Number(e.target.value);
            if (e.target.value.trim() === '') onChange(undefined);
            else if (Number.isFinite(n)) onChange(n);
          }}
        />
      );
    case 'choice': {
      const current = value ?? field.default ?? field.choices[0];
      return (
        <select aria-label={label} value={String(current)} onChange={(e) => onChange(field.choices.find((c) => String(c) === e.target.value) ?? e.target.value)}>
          {[...new Set([...field.choices, current])].map((c) => <option key={String(c)} value={String(c)}>{String(c)}</option>)}
        </select>
      );
    }
    default:
      return null;
  }
}

/** A list of texts (proto files, import folders): one box each, an empty box at the end adds one. */
function TextList({ label, items, onChange }: { label: string; items: string[]; onChange: (items: string[]) => void }) {
  return (
    <table className="kv" aria-label={label}>
      <tbody>
        {[...items, ''].map((item, i) => (
          <tr key={i}>
            <td><input aria-label={`${label} ${i + 1}`} spellCheck={false} value={item} placeholder={i === items.length ? 'add…' : ''} onChange={(e) => onChange(i === items.length ? [...items, e.target.value] : items.map((x, j) => (j === i ? e.target.value : x)))} /></td>
            <td>{i < items.length && <button className="icon" title="Remove" aria-label={`Remove ${label} ${i + 1}`} onClick={() => onChange(items.filter((_, j) => j !== i))}>×</button>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A list of rows (MQTT subscriptions, MCP env): a column per field, **Add** a row of defaults. */
function RowList({ label, fields, rows, onChange }: { label: string; fields: FormField[]; rows: Section[]; onChange: (rows: Section[]) => void }) {
  const blank = (): Section => Object.fromEntries(fields.filter((f) => 'default' in f && f.default !== undefined).map((f) => [f.name, (f as { default: unknown }).default]));
  return (
    <>
      <table className="kv" aria-label={label}>
        <thead><tr>{fields.map((f) => <th key={f.name}>{f.name}</th>)}<th /></tr></thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {fields.map((f) => (
                <td key={f.name}>
                  <FieldInput field={f} label={`${label} ${f.name} ${i + 1}`} value={row[f.name]} onChange={(v) => onChange(rows.map((r, j) => (j === i ? withField(r, f.name, v) : r)))} />
                </td>
              ))}
              <td><button className="icon" title="Remove" aria-label={`Remove ${label} ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>×</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <button onClick={() => onChange([...rows, blank()])}>Add {label} row</button>
    </>
  );
}

function withField(row: Section, field: string, value: unknown): Section {
  const out: Section = { ...row, [field]: value };
  if (value === undefined) delete out[field];
  return out;
}
