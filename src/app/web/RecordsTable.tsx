/**
 * Records of an answer as tables (DNS answers, 2.8): any result whose `detail.records` holds
 * sections of `{ name, type, class, ttl, data }` rows, whatever the kind; `detail.raw` (the
 * message as a zone-file text) is shown below when the kind gives it.
 */
interface RecordRow {
  name: string;
  type: string;
  class?: string;
  ttl?: number;
  data: unknown;
}

export function recordSections(detail: Record<string, unknown> | undefined): Array<[string, RecordRow[]]> | undefined {
  const records = detail?.records;
  if (!records || typeof records !== 'object' || Array.isArray(records)) return undefined;
  const sections = Object.entries(records as Record<string, unknown>).filter((entry): entry is [string, RecordRow[]] => Array.isArray(entry[1]));
  return sections.length > 0 ? sections : undefined;
}

/** Types whose data holds text from the wire, escaped in their zone-file form (`\DDD`). */
const TEXT_TYPES = new Set(['TXT', 'SPF', 'CAA', 'HINFO', 'NAPTR']);

/**
 * A record's data as the table shows it: text as it is; the data of types holding text (TXT
 * strings, CAA values, HINFO and NAPTR strings) as the section's zone-file line writes it
 * (`"v=spf1 -all" "second"`, `0 issue "ca.test"`, bytes that are not UTF-8 as `\DDD`, as kdig
 * shows them), not as JSON, whose escaping doubles every backslash; other data as JSON.
 */
function dataText(row: RecordRow, line: unknown): string {
  if (typeof row.data === 'string') return row.data;
  if (TEXT_TYPES.has(row.type) && typeof line === 'string') return line.split(' ').slice(4).join(' ');
  return JSON.stringify(row.data);
}

export function RecordsTable({ detail }: { detail: Record<string, unknown> }) {
  const sections = recordSections(detail) ?? [];
  // The kind's zone-file lines of a section (`detail.answer`), one per record, when it gives them.
  const lines = (section: string): unknown[] => (Array.isArray(detail[section]) ? detail[section] as unknown[] : []);
  return (
    <div className="records">
      {sections.map(([section, rows]) => (
        <table key={section} className="plain" aria-label={`${section} records`}>
          <caption>{section} ({rows.length})</caption>
          <thead><tr><th>Name</th><th>Type</th><th>Class</th><th>TTL</th><th>Data</th></tr></thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}><td>{r.name}</td><td>{r.type}</td><td>{r.class ?? ''}</td><td>{r.ttl ?? ''}</td><td><code>{dataText(r, rows.length === lines(section).length ? lines(section)[i] : undefined)}</code></td></tr>
            ))}
          </tbody>
        </table>
      ))}
    </div>
  );
}
