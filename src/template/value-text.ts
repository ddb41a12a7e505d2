/**
 * A stored variable value's text where `{{name}}` stands (a request, a server's template).
 * Scripts store JSON data (numbers, booleans, null, objects, lists), and Postman fills a
 * placeholder with the value's JavaScript `String()`: a list is its items joined by commas
 * (`1,two`, `null` items empty), an object is `[object Object]`.
 */
export type StoredValue = string | number | boolean | null | StoredValue[] | { [key: string]: StoredValue };

export function templateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => (item === null || item === undefined ? '' : templateText(item))).join(',');
  if (value !== null && typeof value === 'object') return '[object Object]';
  return String(value);
}
