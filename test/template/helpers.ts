import type { Variable } from '../../src/model/index.js';

/** Variable rows as the model gives them (defaults filled). */
export function rows(spec: Record<string, string | Partial<Variable>>): Variable[] {
  return Object.entries(spec).map(([key, value]) =>
    typeof value === 'string'
      ? { key, value, enabled: true, secret: false }
      : { key, value: '', enabled: true, secret: false, ...value },
  );
}
