/** Rows of key, value, enabled and description: headers, query and path parameters, form fields. */
export interface Row {
  key: string;
  value: string;
  enabled: boolean;
  description: string;
  /** Fields the table does not edit (kept as written). */
  [field: string]: unknown;
}

interface Props {
  rows: Row[];
  onChange: (rows: Row[]) => void;
  label: string;
  /** Path parameters: the keys come from the URL and are not edited here. */
  fixedKeys?: boolean;
}

export function KeyValueTable({ rows, onChange, label, fixedKeys = false }: Props) {
  const set = (i: number, patch: Partial<Row>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  // One empty row at the end: typing in it adds a row, as in every API client.
  const shown = fixedKeys ? rows : [...rows, { key: '', value: '', enabled: true, description: '' }];
  return (
    <table className="kv" aria-label={label}>
      <thead>
        <tr>
          <th />
          <th>Key</th>
          <th>Value</th>
          <th>Description</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {shown.map((row, i) => {
          const isNew = !fixedKeys && i === rows.length;
          const update = (patch: Partial<Row>) => (isNew ? onChange([...rows, { ...row, ...patch }]) : set(i, patch));
          return (
            <tr key={i} className={row.enabled ? '' : 'off'}>
              <td>{!isNew && <input type="checkbox" checked={row.enabled} aria-label={`${label} ${row.key} enabled`} onChange={(e) => set(i, { enabled: e.target.checked })} />}</td>
              <td><input value={row.key} placeholder="key" aria-label={`${label} key ${i + 1}`} readOnly={fixedKeys} onChange={(e) => update({ key: e.target.value })} /></td>
              <td><input value={row.value} placeholder="value" aria-label={`${label} value ${i + 1}`} onChange={(e) => update({ value: e.target.value })} /></td>
              <td><input value={row.description} placeholder="description" aria-label={`${label} description ${i + 1}`} onChange={(e) => update({ description: e.target.value })} /></td>
              <td>{!isNew && !fixedKeys && <button className="icon" title="Remove" aria-label={`Remove ${label} ${row.key}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>×</button>}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
