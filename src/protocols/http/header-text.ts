/**
 * How Ferry reads a response header's value: its bytes as UTF-8, a byte that is not UTF-8 read as
 * U+FFFD. One rule for `ferry run` (pm.response.headers, reports, the app) and load-test captures,
 * so a header captured under load is the value a run of the same request shows.
 */
export function headerText(value: Buffer | string): string {
  return typeof value === 'string' ? value : value.toString('utf8');
}

/**
 * The same, from a value that holds each byte as one Latin-1 character (undici's parsed headers,
 * the load test's HTTP/1.1 client). ASCII reads the same either way, so most values are not copied.
 */
export function headerTextOfLatin1(value: string): string {
  return /[^\x00-\x7f]/.test(value) ? headerText(Buffer.from(value, 'latin1')) : value;
}
