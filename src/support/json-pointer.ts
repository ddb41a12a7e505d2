/**
 * Walks a JSON Pointer fragment (RFC 6901, as in `#/components/schemas/Pet`) through a parsed
 * document. Shared by the OpenAPI importer and the contract check, which may not import each other.
 */
export function walkJsonPointer(root: unknown, fragment: string): unknown {
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (decoded === '') return root;
  if (!decoded.startsWith('/')) return undefined;
  let current: unknown = root;
  for (const raw of decoded.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = /^\d+$/.test(key) ? current[Number(key)] : undefined;
    else if (typeof current === 'object' && current !== null && Object.hasOwn(current, key)) current = (current as Record<string, unknown>)[key];
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}
