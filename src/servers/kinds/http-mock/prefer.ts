/**
 * The `Prefer` request header as Prism reads it (RFC 7240 preferences): `code=404` chooses the
 * documented response of that status, `example=NAME` a named example. Other preferences
 * (`respond-async`, `return=minimal`) are not the mock's to honour and are ignored.
 */

export interface MockPreference {
  code?: number;
  example?: string;
}

/** The preferences of the header values, or undefined when none concerns the mock. */
export function readPrefer(values: readonly string[]): MockPreference | undefined {
  let found: MockPreference | undefined;
  for (const value of values) {
    for (const part of value.split(/[,;]/)) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      const name = part.slice(0, eq).trim().toLowerCase();
      let text = part.slice(eq + 1).trim();
      if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
      if (name === 'code' && /^\d{3}$/.test(text)) (found ??= {}).code = Number(text);
      else if (name === 'example' && text !== '') (found ??= {}).example = text;
    }
  }
  return found;
}
