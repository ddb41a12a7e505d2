// Enough of the WHATWG URL class for @cfworker/json-schema's `$id`/`$ref` resolution inside the
// script sandbox (QuickJS has no URL): RFC 3986 reference resolution, `href`, and a settable
// `hash`. Injected into that bundle only (scripts/bundle-sandbox.mjs); scripts never see it.
const PARTS = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;

function parse(text) {
  const m = PARTS.exec(text);
  return { scheme: m[1], authority: m[2], path: m[3], query: m[4], fragment: m[5] };
}

/** RFC 3986 5.2.4. */
function removeDots(path) {
  const out = [];
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === '..') {
      if (out.length > 1) out.pop();
      if (i === segments.length - 1) out.push('');
    } else if (segment === '.') {
      if (i === segments.length - 1) out.push('');
    } else out.push(segment);
  }
  return out.join('/');
}

class URL {
  constructor(reference, base) {
    const ref = parse(String(reference));
    if (ref.scheme !== undefined) {
      this._parts = { ...ref, path: removeDots(ref.path) };
    } else {
      if (base === undefined) throw new TypeError(`Invalid URL: ${reference}`);
      const b = parse(String(base));
      const out = { scheme: b.scheme, authority: b.authority, path: b.path, query: b.query, fragment: ref.fragment };
      if (ref.authority !== undefined) {
        Object.assign(out, { authority: ref.authority, path: removeDots(ref.path), query: ref.query });
      } else if (ref.path === '') {
        if (ref.query !== undefined) out.query = ref.query;
      } else {
        const merged = ref.path.startsWith('/') ? ref.path : (b.authority !== undefined && b.path === '' ? '/' : b.path.slice(0, b.path.lastIndexOf('/') + 1)) + ref.path;
        Object.assign(out, { path: removeDots(merged), query: ref.query });
      }
      this._parts = out;
    }
    if ((this._parts.scheme === 'http' || this._parts.scheme === 'https') && this._parts.path === '') this._parts.path = '/';
  }
  get href() {
    const p = this._parts;
    return `${p.scheme}:${p.authority !== undefined ? `//${p.authority}` : ''}${p.path}${p.query !== undefined ? `?${p.query}` : ''}${p.fragment ? `#${p.fragment}` : ''}`;
  }
  get hash() {
    return this._parts.fragment ? `#${this._parts.fragment}` : '';
  }
  set hash(value) {
    const text = String(value);
    this._parts.fragment = text.startsWith('#') ? text.slice(1) : text;
  }
  toString() {
    return this.href;
  }
}

export { URL };
