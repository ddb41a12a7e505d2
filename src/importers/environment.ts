/**
 * Environment and globals exports (spec 4.3): a new environment with the export's variables.
 * Secret-type variables become secret variables; their values go to the secret store only.
 */
import { MAX_NAME_LENGTH } from '../workspace/index.js';
import { emptyResult, ImportError, type ImportResult } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function importEnvironment(document: unknown, kind: 'environment' | 'globals', options: { name?: string } = {}): ImportResult {
  const values = Array.isArray(document) ? document : isObj(document) && Array.isArray(document.values) ? document.values : undefined;
  if (!values) throw new ImportError('The environment export has no "values" list.');
  const rawName = options.name ?? (isObj(document) && typeof document.name === 'string' && document.name.trim() ? document.name : undefined);
  const name = [...(rawName?.trim() || (kind === 'globals' ? 'Globals' : 'Imported environment'))].slice(0, MAX_NAME_LENGTH).join('');
  const result = emptyResult(kind, name);
  const variables = [];
  let skipped = 0;
  for (const v of values) {
    if (!isObj(v) || typeof v.key !== 'string' || v.key === '') { skipped++; continue; }
    const value = v.value === undefined || v.value === null ? '' : typeof v.value === 'object' ? JSON.stringify(v.value) : String(v.value);
    const secret = v.type === 'secret';
    const enabled = !(v.enabled === false || v.disabled === true);
    variables.push({ key: v.key, value: secret ? '' : value, ...(enabled ? {} : { enabled: false }), ...(secret ? { secret: true } : {}) });
    if (secret && value !== '') result.secrets.push({ scope: 'environment', environmentIndex: 0, key: v.key, value });
  }
  if (skipped > 0) result.notes.push(`${skipped} variable(s) without a name were skipped.`);
  const keys = variables.map((v) => v.key);
  const repeated = [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))];
  if (repeated.length > 0) result.notes.push(`Some variables appear more than once (${repeated.join(', ')}); all were kept, and the last enabled one wins.`);
  result.environments.push({ name, variables });
  return result;
}
