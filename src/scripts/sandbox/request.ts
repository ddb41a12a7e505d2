/**
 * pm.request over the workspace's request data: method, Url, headers PropertyList, Postman-shaped
 * body and auth. `toData()` gives the request back in the workspace's shape.
 */
import { PropertyList, type ChangeFlag, type Property } from './property-list.js';
import { Url } from './url.js';
import { authJSON, rowJSON } from './postman-json.js';
import { expect } from './response.js';

export interface KeyValue {
  key: string;
  value: string;
  enabled?: boolean;
  [field: string]: unknown;
}
export interface RequestData {
  name?: string;
  description?: string;
  method: string;
  url: string;
  headers: KeyValue[];
  pathParams?: KeyValue[];
  body?: { type: string; [field: string]: unknown };
  auth?: { type: string; [field: string]: unknown };
}

/** Workspace rows (`enabled: false`) to Postman properties (`disabled: true`) and back. */
function toProperties(rows: unknown): Property[] {
  if (!Array.isArray(rows)) return [];
  return rows.map((row: KeyValue) => {
    const { enabled, ...rest } = row;
    return enabled === false ? { ...rest, disabled: true } : { ...rest };
  });
}
function fromProperties(items: Property[]): KeyValue[] {
  return items.map((item) => {
    const { disabled, ...rest } = item;
    const row: KeyValue = { ...rest, key: String(item.key), value: item.value === null || item.value === undefined ? '' : String(item.value) };
    if (disabled) row.enabled = false;
    return row;
  });
}

const rawLanguage: Record<string, string> = { json: 'json', xml: 'xml', text: 'text' };

/** Postman's RequestBody: `mode` plus the data of that mode. */
export class RequestBody {
  mode: string | undefined;
  raw: string | undefined;
  urlencoded: PropertyList | undefined;
  formdata: PropertyList | undefined;
  file: { src: string } | undefined;
  graphql: { query?: string; variables?: string; operationName?: string } | undefined;
  options: { raw?: { language: string } } | undefined;

  constructor(private readonly original: { type: string; [field: string]: unknown } | undefined) {
    const body = original ?? { type: 'none' };
    switch (body.type) {
      case 'json':
      case 'text':
      case 'xml':
        this.mode = 'raw';
        this.raw = typeof body.text === 'string' ? body.text : '';
        this.options = { raw: { language: rawLanguage[body.type]! } };
        break;
      case 'formUrlencoded':
        this.mode = 'urlencoded';
        this.urlencoded = new PropertyList(toProperties(body.form), false);
        break;
      case 'multipart':
        this.mode = 'formdata';
        this.formdata = new PropertyList(
          toProperties(body.multipart).map((p) => (p.file ? { ...p, type: 'file', src: p.value } : { ...p, type: 'text' })),
          false,
        );
        break;
      case 'binary':
        this.mode = 'file';
        this.file = { src: typeof body.file === 'string' ? body.file : '' };
        break;
      case 'graphql': {
        const g = (body.graphql ?? {}) as Record<string, unknown>;
        this.mode = 'graphql';
        // Newman's keys, in its order; an operation name the request has none of is not there
        // (undefined, as in Newman's: the model's empty default is no name), variables always are,
        // as every Postman export writes them.
        this.graphql = { query: g.query as string, operationName: g.operationName === '' ? undefined : (g.operationName as string), variables: g.variables as string };
        break;
      }
      default:
        this.mode = undefined;
    }
    this.initial = this.snapshot();
  }

  /** Everything a script may change, for `toData` to tell whether it did. */
  private snapshot(): string {
    return JSON.stringify([this.mode, this.raw, this.urlencoded?.toJSON(), this.formdata?.toJSON(), this.file, this.graphql, this.options]);
  }

  private readonly initial: string;

  /** Replaces the body: a string becomes a raw body; an object is `{mode, raw|urlencoded|...}`. */
  update(options: unknown): void {
    this.raw = this.urlencoded = this.formdata = this.file = this.graphql = undefined;
    if (typeof options === 'string') {
      this.mode = 'raw';
      this.raw = options;
      return;
    }
    const o = (options ?? {}) as Record<string, unknown>;
    this.mode = typeof o.mode === 'string' ? o.mode : undefined;
    if (this.mode === 'raw') this.raw = String(o.raw ?? '');
    if (this.mode === 'urlencoded') this.urlencoded = new PropertyList(Array.isArray(o.urlencoded) ? o.urlencoded.map((p) => ({ ...p })) : [], false);
    if (this.mode === 'formdata') this.formdata = new PropertyList(Array.isArray(o.formdata) ? o.formdata.map((p) => ({ ...p })) : [], false);
    if (this.mode === 'file') this.file = { src: String((o.file as { src?: string } | undefined)?.src ?? '') };
    if (this.mode === 'graphql') this.graphql = { ...(o.graphql as object) };
    if (o.options && typeof o.options === 'object') this.options = o.options as RequestBody['options'];
  }
  isEmpty(): boolean {
    if (this.mode === 'raw') return !this.raw;
    if (this.mode === 'urlencoded') return !this.urlencoded || this.urlencoded.count() === 0;
    if (this.mode === 'formdata') return !this.formdata || this.formdata.count() === 0;
    if (this.mode === 'file') return !this.file?.src;
    if (this.mode === 'graphql') return !this.graphql?.query;
    return true;
  }
  toString(): string {
    if (this.mode === 'raw') return this.raw ?? '';
    if (this.mode === 'urlencoded' && this.urlencoded) {
      return this.urlencoded
        .filter((p) => !p.disabled)
        .map((p) => `${encodeURIComponent(p.key)}=${encodeURIComponent(String(p.value ?? ''))}`)
        .join('&');
    }
    // As Postman's: text for raw and URL-encoded bodies only (a GraphQL body gives '', and so the legacy `request.data` is `{}`).
    return '';
  }
  /** Postman's RequestBody.toJSON: the mode and its data, rows as Postman writes them. */
  toJSON(): Record<string, unknown> {
    return {
      mode: this.mode,
      raw: this.raw,
      urlencoded: this.urlencoded?.all().map((row) => rowJSON(row)),
      formdata: this.formdata?.all().map((row) => rowJSON(row, true)),
      file: this.file,
      graphql: this.graphql,
      options: this.options,
    };
  }

  /** The body in the workspace's shape; the original object when nothing changed. */
  toData(): RequestData['body'] {
    if (this.snapshot() === this.initial) return this.original;
    const keep = { ...(this.original ?? {}) };
    switch (this.mode) {
      case 'raw': {
        const language = this.options?.raw?.language;
        const type = language === 'json' || language === 'xml' ? language
          : ['json', 'xml', 'text'].includes(keep.type as string) && !language ? (keep.type as string) : 'text';
        return { ...keep, type, text: this.raw ?? '' };
      }
      case 'urlencoded':
        return { ...keep, type: 'formUrlencoded', form: fromProperties(this.urlencoded?.all() ?? []) };
      case 'formdata':
        return {
          ...keep,
          type: 'multipart',
          multipart: fromProperties(this.formdata?.all() ?? []).map(({ type, src, ...row }) =>
            type === 'file' ? { ...row, value: String(src ?? row.value), file: true } : row),
        };
      case 'file':
        return { ...keep, type: 'binary', file: this.file?.src ?? '' };
      case 'graphql':
        return { ...keep, type: 'graphql', graphql: { ...((keep.graphql as object) ?? {}), ...this.graphql } };
      default:
        return { ...keep, type: 'none' };
    }
  }
}

/**
 * Postman's Description: the request's notes as `content`, with their `type`. Postman gives a
 * description written as plain text (every export's) the type `text/plain`, so Ferry's notes get it
 * too: a script logging `pm.request.description` writes what Newman's writes.
 */
export class Description {
  constructor(
    readonly content: string,
    readonly type = 'text/plain',
  ) {}

  toString(): string {
    return this.content;
  }
}

export class ScriptRequest {
  method: string;
  readonly name: string | undefined;
  /** The request's notes (`docs`); undefined without any, as Postman's for a request without a description. */
  readonly description: Description | undefined;
  auth: { type: string; [field: string]: unknown } | undefined;
  // URL, headers and body are built on first use: most scripts touch none of them.
  private urlObject: Url | undefined;
  private headerList: PropertyList | undefined;
  private bodyObject: RequestBody | undefined;
  private pathVariableList: PropertyList | undefined;
  private readonly pathEdits: ChangeFlag = { changed: false };

  /**
   * @param id the request's id for scripts (its path: `requestIdOf`), the same as
   *   `pm.info.requestId` and the legacy `request.id`, so the three agree.
   */
  constructor(
    private readonly data: RequestData,
    readonly id: string,
  ) {
    this.name = data.name;
    this.description = data.description ? new Description(data.description) : undefined;
    this.method = String(data.method ?? 'GET');
    this.auth = data.auth ? { ...data.auth } : undefined;
  }

  get headers(): PropertyList {
    this.headerList ??= new PropertyList(toProperties(this.data.headers), true);
    return this.headerList;
  }
  get body(): RequestBody {
    this.bodyObject ??= new RequestBody(this.data.body);
    return this.bodyObject;
  }
  set body(value: RequestBody) {
    if (!(value instanceof RequestBody)) throw new TypeError('pm.request.body: use pm.request.body.update(...) to replace the body');
    this.bodyObject = value;
  }

  get url(): Url {
    this.urlObject ??= new Url(String(this.data.url ?? ''), this.pathVariables);
    return this.urlObject;
  }
  set url(value: Url | string) {
    this.urlObject = value instanceof Url ? value : new Url(String(value), this.pathVariables);
  }
  /** The path parameters' values (`url.variables`), one list for every Url the script gives the request. */
  private get pathVariables(): PropertyList {
    this.pathVariableList ??= new PropertyList(toProperties(this.data.pathParams), false, this.pathEdits);
    return this.pathVariableList;
  }
  /** chai assertions on the request, e.g. `pm.request.to.have.header('X-Id')`, as Postman's. */
  get to(): unknown {
    return (expect()(this) as { to: unknown }).to;
  }
  get not(): unknown {
    return (expect()(this) as { not: unknown }).not;
  }

  addHeader(header: unknown): void {
    this.headers.add(header);
  }
  upsertHeader(header: unknown): void {
    this.headers.upsert(header);
  }
  removeHeader(name: string | Property): void {
    this.headers.remove(typeof name === 'string' ? name : name.key);
  }
  getHeaders(options?: { ignoreCase?: boolean; enabled?: boolean }): Record<string, unknown> {
    return this.headers.toObject(options?.enabled ?? true, !options?.ignoreCase);
  }
  addQueryParams(params: string | Property[]): void {
    this.url.addQueryParams(params);
  }
  removeQueryParams(params: string | string[]): void {
    this.url.removeQueryParams(params);
  }
  /**
   * Postman's Request.toJSON, as Newman's scripts get it (and so `JSON.stringify(pm.request)`):
   * `id`, `description`, `url` as Postman's Url object, `header` (left out when there is none),
   * `method`, `body` (left out without one) and `auth` in Postman's form. No `name`: Newman's
   * pm.request has none (the name is the item's).
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { id: this.id };
    if (this.description) out.description = { content: this.description.content, type: this.description.type };
    out.url = this.url.toJSON();
    const header = this.headers.all().map((row) => rowJSON(row));
    if (header.length > 0) out.header = header;
    out.method = this.method;
    if (this.body.mode !== undefined) out.body = this.body.toJSON();
    const auth = authJSON(this.auth);
    if (auth) out.auth = auth;
    return out;
  }

  toData(): RequestData {
    const out: RequestData = {
      method: String(this.method).toUpperCase(),
      // An untouched Url prints exactly what it was given.
      url: this.urlObject ? this.urlObject.toString() : String(this.data.url ?? ''),
      headers: this.headerList ? fromProperties(this.headerList.all()) : this.data.headers,
    };
    if (this.name !== undefined) out.name = this.name;
    if (this.data.description !== undefined) out.description = this.data.description;
    const pathParams = this.pathEdits.changed && this.pathVariableList ? fromProperties(this.pathVariableList.all()) : this.data.pathParams;
    if (pathParams !== undefined) out.pathParams = pathParams;
    const body = this.bodyObject ? this.bodyObject.toData() : this.data.body;
    if (body !== undefined) out.body = body;
    if (this.auth && typeof this.auth === 'object') out.auth = { ...this.auth, type: String(this.auth.type ?? 'none') };
    return out;
  }
}
