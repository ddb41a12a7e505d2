/** One iteration's values: text and numbers from a CSV file (parseCsv), any JSON value from a JSON file. */
export type DataRow = VariableValues;

/** Files and templates hold text: a value that is not text is kept as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

/**
 * A run's data row as `{{name}}` fills it, as Newman does: text as written, any other value its
 * JavaScript String() (templateText: `[object Object]`, a list joined by commas), and null as
 * nothing to fill (`null` here: `{{name}}` stays as written, the environment's value not used).
 * Own properties even for a name such as `__proto__`.
 */
export function rowFill(row: DataRow): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(row)) putOwn(out, key, value === null ? null : templateText(value));
  return out;
}

/**
 * A load test's data row as its templates fill it: each value as text (a value that is not text
 * as its JSON). Own properties even for a name such as `__proto__`.
 */
export function rowText(row: DataRow): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(row)) putOwn(out, key, asText(value));
  return out;
}

/**
 * `--data FILE`: rows of variables, one iteration each, from CSV (first line names the columns,
 * RFC 4180 quoting) or JSON (an array of objects), as Newman reads them.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { lazyRequire } from '../support/lazy-require.js';
import { notUtf8Name } from '../support/system-error.js';
import { FileTooLargeError, isLinkError, readFileNoFollow } from '../support/read-no-follow.js';
import type { VariableValues } from '../scripts/index.js';
import { templateText } from '../template/index.js';

const csvParse = lazyRequire<typeof import('csv-parse/sync')>(import.meta.url, 'csv-parse/sync');

export class DataFileError extends Error {
  override name = 'DataFileError';
}

const MAX_DATA_BYTES = 50 * 1024 * 1024;

export async function readDataFile(file: string): Promise<DataRow[]> {
  let stat;
  try {
    stat = await fs.lstat(file);
  } catch {
    throw new DataFileError(notUtf8Name(file) ?? `data file ${file} does not exist.`);
  }
  if (stat.isSymbolicLink()) throw new DataFileError(`data file ${file} is a symbolic link; Ferry never follows links.`);
  if (!stat.isFile()) throw new DataFileError(`data file ${file} is not a regular file.`);
  if (stat.size > MAX_DATA_BYTES) throw new DataFileError(`data file ${file} is larger than 50 MB.`);
  let text: string;
  try {
    // Without following a link at its end: one put in the file's place since the check is refused.
    text = await readFileNoFollow(file, 'utf8', MAX_DATA_BYTES);
  } catch (error) {
    if (isLinkError(error)) throw new DataFileError(`data file ${file} is a symbolic link; Ferry never follows links.`);
    if (error instanceof FileTooLargeError) throw new DataFileError(`data file ${file} is larger than 50 MB.`);
    throw error;
  }
  return dataRows(text, file);
}

/** The rows of a data file's text; `file` names it in messages and its extension picks CSV or JSON (else the content does). */
export function dataRows(text: string, file: string): DataRow[] {
  if (Buffer.byteLength(text) > MAX_DATA_BYTES) throw new DataFileError(`data file ${file} is larger than 50 MB.`);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json' || (ext !== '.csv' && /^\s*[[{]/.test(text))) return jsonRows(text, file);
  return csvRows(text, file);
}

function jsonRows(text: string, file: string): DataRow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new DataFileError(`data file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(data)) throw new DataFileError(`data file ${file} must hold a JSON array of objects, one per iteration.`);
  return data.map((row, i) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new DataFileError(`data file ${file}: item ${i + 1} is not an object of variable values.`);
    }
    // As the file has them: `pm.iterationData.get('n')` is the number 1 for `"n": 1`, as in Newman; templates get rowFill's text.
    return row as DataRow; // JSON.parse gives JSON values
  });
}

/** A CSV field: text, or a number written as it prints (parseCsv). */
export type CsvCell = string | number;
/** One CSV record and the line it ends on (a quoted field may span lines). */
export interface CsvRecord {
  cells: CsvCell[];
  line: number;
}

/**
 * RFC 4180 CSV (csv-parse): quoted fields may hold commas, quotes (doubled) and line breaks; a
 * quote inside an unquoted field is literal; empty lines are skipped; spaces around a delimiter
 * are dropped, as Newman reads them. A quote left open throws. Columns are split at commas, or at
 * semicolons when the first line has a semicolon and no comma (`csvDelimiter`). An unquoted number
 * is a number, as Newman gives it to scripts (`10`, `-3`, `1.5`), but only when it is written as
 * the number prints, so its text comes back unchanged: `0123`, `1.50`, `1e3` and quoted fields stay
 * text (Newman would make `0123` the number 123 and send `123`).
 */
export function parseCsv(text: string): CsvRecord[] {
  const delimiter = csvDelimiter(text);
  const records = csvParse().parse(text, { bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, info: true, cast: csvValue }) as unknown as Array<{ record: CsvCell[]; info: { lines: number } }>;
  return records.map(({ record, info }) => ({ cells: record, line: info.lines }));
}

/**
 * What separates columns. **Decision:** a first line (the column names) with a semicolon and no
 * comma is a CSV saved where the comma is the decimal mark (Excel in much of Europe writes `;`
 * there): its columns are split at `;`, as spreadsheet programs read it back. Newman would take
 * `user;note` for one column's name and leave `{{user}}` unfilled; any comma in the first line
 * keeps commas.
 */
function csvDelimiter(text: string): ',' | ';' {
  const first = /^[^\r\n]*/.exec(text)![0];
  return first.includes(';') && !first.includes(',') ? ';' : ',';
}

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

function csvValue(value: string, context: { quoting: boolean }): CsvCell {
  if (context.quoting || !NUMBER_TEXT.test(value)) return value;
  const n = Number(value);
  return String(n) === value ? n : value;
}

function csvRows(text: string, file: string): DataRow[] {
  let rows: CsvRecord[];
  try {
    rows = parseCsv(text);
  } catch (error) {
    // csv-parse says what and on which line: "Quote Not Closed: … at line 2".
    const quote = /QUOTE/.test(String((error as { code?: unknown }).code)) ? ' Close the quote, or double a quote inside a quoted field ("").' : '';
    throw new DataFileError(`data file ${file} is not valid CSV: ${(error as Error).message}.${quote}`);
  }
  if (rows.length === 0) throw new DataFileError(`data file ${file} is empty; its first line must name the variables.`);
  const header = rows[0]!.cells.map((h) => String(h).trim());
  if (header.some((h) => h === '')) throw new DataFileError(`data file ${file}: a column in the first line has no name.`);
  return rows.slice(1).map(({ cells, line }) => {
    if (cells.length > header.length) {
      throw new DataFileError(`data file ${file}: line ${line} has ${cells.length} fields but the first line names ${header.length}.`);
    }
    // Own properties, as a JSON row's: a column named `__proto__` is a variable, not the prototype.
    const out: DataRow = {};
    header.forEach((name, c) => putOwn(out, name, cells[c] ?? ''));
    return out;
  });
}

/** Sets an own property, even for a name such as `__proto__` (plain assignment would change the prototype). */
export function putOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
