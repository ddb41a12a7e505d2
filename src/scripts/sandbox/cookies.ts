/** Cookies a response set, read from its Set-Cookie headers: `pm.response.cookies` and the legacy `responseCookies`. */
import type { PropertyList } from './property-list.js';

export interface Cookie {
  name: string;
  value: string;
  [attribute: string]: string | boolean;
}

/** Cookies from the response's Set-Cookie headers (read-only; there is no cookie jar). */
export function responseCookies(response: { headers: PropertyList } | undefined): Cookie[] {
  if (!response) return [];
  return response.headers
    .filter((h) => h.key.toLowerCase() === 'set-cookie')
    .map((h) => {
      const [pair, ...attributes] = String(h.value).split(';');
      const eq = pair!.indexOf('=');
      const cookie: Cookie = { name: pair!.slice(0, eq < 0 ? undefined : eq).trim(), value: eq < 0 ? '' : pair!.slice(eq + 1).trim() };
      for (const attribute of attributes) {
        const at = attribute.indexOf('=');
        const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
        if (key && key !== 'name' && key !== 'value') cookie[key] = at < 0 ? true : attribute.slice(at + 1).trim();
      }
      return cookie;
    });
}
