/**
 * Environment and globals exports (spec 4.3): a new environment with the export's variables.
 * Secret-type variables become secret variables; their values go to the secret store only.
 */
import { withinNameLimit } from './name-limit.js';
import { emptyResult, ImportError, type ImportResult, type ImportSource } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface EnvironmentImportOptions {
  /** `--name`: replaces the export's own name. */
  name?: string;
  /** Where the export came from: names an environment export that has no name of its own. */
  source?: ImportSource;
}

export function importEnvironment(document: unknown, kind: 'environment' | 'globals', options: EnvironmentImportOptions = {}): ImportResult {
  const values = Array.isArray(document) ? document : isObj(document) && Array.isArray(document.values) ? document.values : undefined;
  if (!values) throw new ImportError('The environment export has no "values" list.');
  const rawName = options.name ?? (isObj(document) && typeof document.name === 'string' && document.name.trim() ? document.name : undefined);
  // Spec 4.3 names a nameless globals export `Globals`; a nameless environment export (the spec
  // is silent) is named after its file, the way the user knows it.
  const fallback = kind === 'globals' ? 'Globals' : (options.source && nameFromSource(options.source)) || 'Imported environment';
  const notes: string[] = [];
  const name = withinNameLimit(rawName?.trim() || fallback, notes).trim();
  const result = emptyResult(kind, name);
  result.notes.push(...notes);
  const variables = [];
  /** The value of each row, by row (secret ones are empty in `variables`). */
  const rowValues: string[] = [];
  let skipped = 0;
  for (const v of values) {
    if (!isObj(v) || typeof v.key !== 'string' || v.key === '') { skipped++; continue; }
    const value = v.value === undefined || v.value === null ? '' : typeof v.value === 'object' ? JSON.stringify(v.value) : String(v.value);
    const secret = v.type === 'secret';
    const enabled = !(v.enabled === false || v.disabled === true);
    variables.push({ key: v.key, value: secret ? '' : value, ...(enabled ? {} : { enabled: false }), ...(secret ? { secret: true } : {}) });
    rowValues.push(value);
  }
  if (skipped > 0) result.notes.push(`${skipped} variable(s) without a name were skipped.`);
  // Postman (and Newman) use the last enabled row of a key; Ferry the first enabled one (spec
  // 2.10 rows are read in order). The earlier enabled rows are switched off, so the same value is used.
  const lastEnabled = new Map<string, number>();
  variables.forEach((v, i) => { if (v.enabled !== false) lastEnabled.set(v.key, i); });
  const repeated = new Set<string>();
  variables.forEach((v, i) => {
    if (v.enabled === false || lastEnabled.get(v.key) === i) return;
    variables[i] = { ...v, enabled: false };
    repeated.add(v.key);
  });
  // The secret store holds one value per key: the row that is used (the last enabled, else the last).
  const used = new Map<string, number>();
  variables.forEach((v, i) => { used.set(v.key, lastEnabled.get(v.key) ?? i); });
  for (const i of used.values()) {
    const v = variables[i]!;
    if (v.secret && rowValues[i] !== '') result.secrets.push({ scope: 'environment', environmentIndex: 0, key: v.key, value: rowValues[i]! });
  }
  if (repeated.size > 0) result.notes.push(`Some variables appear more than once (${[...repeated].join(', ')}); all were kept, and the last enabled one is used, as in Postman: the earlier ones were switched off.`);
  result.environments.push({ name, variables });
  return result;
}

/**
 * The file name without its extension: `Staging.postman_environment.json` gives `Staging`
 * (Postman's double extension goes too), a download's last path segment likewise. Standard
 * input and pasted text have no file name.
 */
export function nameFromSource(source: ImportSource): string | undefined {
  let base: string | undefined;
  if (source.path) base = source.path.split(/[\\/]/).pop();
  else if (source.url) {
    try {
      base = decodeURIComponent(new URL(source.url).pathname.split('/').pop() ?? '');
    } catch {
      base = undefined;
    }
  }
  const stem = base?.replace(/(?<=.)\.[^.]*$/, '').replace(/\.postman_(environment|globals)$/i, '').replace(/[\r\n]+/g, ' ').trim();
  return stem || undefined;
}
