/**
 * cURL import (spec 4.6): one command in, one request out, with notes for what is not brought
 * over exactly. `importCurl` returns an `ImportResult` holding that one request.
 */
import { MAX_NAME_LENGTH } from '../../workspace/index.js';
import { emptyResult, ImportError, type ImportResult, type ImportedRequestData } from '../types.js';
import { parseCurlArgs } from './args.js';
import { dataBody, dataPieces, joinData, parseFormArg, piecesToText, type DataArg, type FormPart } from './body.js';
import { findCurlCommand, type ShellDialect } from './tokenize.js';

export { findCurlCommand, detectDialect, type ShellDialect } from './tokenize.js';

export interface CurlImportOptions {
  /** Force a shell dialect instead of guessing it from the text. */
  dialect?: ShellDialect;
  /** Display name of the new request; default: derived from the URL. */
  name?: string;
}

export interface CurlRequest {
  request: ImportedRequestData;
  notes: string[];
}

const DATA_KINDS: Record<string, DataArg['kind']> = {
  data: 'data', 'data-ascii': 'ascii', 'data-binary': 'binary', 'data-raw': 'raw', 'data-urlencode': 'urlencode', json: 'json',
};
/**
 * Where curl's HTTP version options ask for less than Ferry's setting does: `--http2` takes
 * HTTP/1.1 from a server without HTTP/2, `httpVersion: http2` refuses it (the request then fails
 * where the command worked); `-0` speaks HTTP/1.0, Ferry 1.1.
 */
const VERSION_NOTES: Record<string, string | undefined> = {
  http2: 'curl --http2 uses HTTP/2 when the server offers it and HTTP/1.1 otherwise; it was imported as httpVersion http2, which speaks HTTP/2 only (over http:// at once, as --http2-prior-knowledge), so a server that speaks only HTTP/1.1 is refused. Set the request\'s httpVersion to auto for curl\'s behaviour.',
  'http1.0': 'curl -0 (--http1.0) speaks HTTP/1.0; Ferry has no HTTP/1.0 and sends HTTP/1.1 (httpVersion http1).',
};
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

export function importCurl(text: string, options: CurlImportOptions = {}): ImportResult {
  const { request, notes } = curlToRequest(text, options);
  const result = emptyResult('curl', String(request.name));
  result.items.push({ type: 'request', request });
  result.notes.push(...notes);
  return result;
}

export function curlToRequest(text: string, options: CurlImportOptions = {}): CurlRequest {
  const command = findCurlCommand(text, options.dialect);
  const parsed = parseCurlArgs(command.args);
  if (parsed.missingArgument) {
    throw new ImportError(`The curl option ${parsed.missingArgument} needs a value, but the command ends there. Check that the command was copied whole.`);
  }
  const notes: string[] = [];
  const headers: { key: string; value: string }[] = [];
  const data: DataArg[] = [];
  const formParts: FormPart[] = [];
  const urls: string[] = [];
  const urlQueries: string[] = [];
  const cookies: string[] = [];
  const ignored = { proxy: new Set<string>(), certificate: new Set<string>(), other: new Set<string>() };
  let method: string | undefined;
  let head = false;
  let get = false;
  let upload: string | undefined;
  let user: string | undefined;
  let authScheme: 'basic' | 'digest' | 'ntlm' = 'basic';
  let bearer: string | undefined;
  let awsSigv4: string | undefined;
  let userAgent: string | undefined;
  let referer: string | undefined;
  let globoff = false;
  // The last HTTP version option wins, in curl as here; its note goes with it.
  let versionNote: string | undefined;
  const settings: NonNullable<ImportedRequestData['settings']> = {};

  for (const { option, value, negated } of parsed.options) {
    if (option.role !== 'use') {
      if (option.role !== 'output') ignored[option.role].add(`--${option.long}`);
      continue;
    }
    switch (option.long) {
      case 'request': method = value; break;
      case 'header': addHeader(headers, value, notes); break;
      case 'data': case 'data-ascii': case 'data-binary': case 'data-raw': case 'data-urlencode': case 'json':
        data.push({ kind: DATA_KINDS[option.long]!, value });
        break;
      case 'form': case 'form-string': {
        const part = parseFormArg(value, option.long === 'form-string', notes);
        if (part) formParts.push(part);
        break;
      }
      case 'upload-file': upload ??= value; break;
      case 'get': get = !negated; break;
      case 'head': head = !negated; break;
      case 'user': user = value; break;
      case 'digest': if (!negated) authScheme = 'digest'; break;
      case 'ntlm': if (!negated) authScheme = 'ntlm'; break;
      case 'basic': if (!negated) authScheme = 'basic'; break;
      case 'oauth2-bearer': bearer = value; break;
      case 'aws-sigv4': awsSigv4 = value; break;
      case 'cookie':
        if (value.includes('=')) cookies.push(value.trim().replace(/;\s*$/, ''));
        else notes.push(`The cookie file "${value}" (-b) is not read; cookies come from Ferry's cookie jar.`);
        break;
      case 'user-agent': userAgent = value; break;
      case 'referer': referer = value.replace(/;auto$/, ''); break;
      case 'insecure': settings.verifyTls = negated; break;
      // curl asks for a compressed answer and decodes it; Ferry does so when decompress is on.
      case 'compressed': if (negated) delete settings.decompress; else settings.decompress = true; break;
      case 'location': if (negated) delete settings.followRedirects; else settings.followRedirects = true; break;
      case 'max-redirs': {
        const n = Number(value);
        if (Number.isInteger(n) && n >= 0 && n <= 1000) settings.maxRedirects = n;
        else notes.push(`--max-redirs ${value} is not a count Ferry can keep (0 to 1000); it was skipped.`);
        break;
      }
      case 'max-time': {
        const seconds = Number(value);
        if (Number.isFinite(seconds) && seconds >= 0) settings.timeoutMs = Math.round(seconds * 1000);
        else notes.push(`--max-time ${value} is not a number of seconds; it was skipped.`);
        break;
      }
      case 'http1.0': case 'http1.1': settings.httpVersion = 'http1'; versionNote = VERSION_NOTES[option.long]; break;
      case 'http2': case 'http2-prior-knowledge': settings.httpVersion = 'http2'; versionNote = VERSION_NOTES[option.long]; break;
      case 'http3': case 'http3-only': settings.httpVersion = 'http3'; versionNote = undefined; break;
      case 'url': urls.push(value); break;
      case 'url-query': urlQueries.push(value); break;
      case 'globoff': globoff = !negated; break;
    }
  }
  urls.push(...parsed.urls);
  if (versionNote) notes.push(versionNote);
  collectShellNotes(command, parsed, ignored, notes);
  if (urls.length === 0) throw new ImportError('The curl command has no URL. Add the address to call, e.g. curl https://example.com/items');
  if (urls.length > 1) notes.push(`The command calls ${urls.length} URLs; only the first (${urls[0]}) was imported.`);

  // URL: scheme added like curl does, credentials moved to auth, --url-query and -G data appended.
  let url = urls[0]!;
  if (!HAS_SCHEME.test(url) && !url.startsWith('{{')) url = 'http://' + url;
  const credentials = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#@]*)@/.exec(url);
  if (credentials) {
    url = credentials[1]! + url.slice(credentials[0].length);
    if (user === undefined) user = safeDecode(credentials[2]!.replace(/:.*/, '')) + (credentials[2]!.includes(':') ? ':' + safeDecode(credentials[2]!.replace(/^[^:]*:/, '')) : '');
  }
  for (const q of urlQueries) url = appendQuery(url, q.startsWith('+') ? q.slice(1) : piecesToText(dataPieces({ kind: 'urlencode', value: q })));
  if (!globoff && /\{[^{}]*,[^{}]*\}|\[[^\]]*-[^\]]*\]/.test(url.replace(/\{\{[^}]*\}\}/g, ''))) {
    notes.push('The URL has curl glob patterns ({a,b} or [1-9]); they were kept literally, as with --globoff.');
  }

  // Headers derived from options come after the -H headers, in curl's order.
  const hasHeader = (name: string) => headers.some((h) => h.key.toLowerCase() === name.toLowerCase());
  // curl sends -b cookies only when no -H gives a Cookie header; that header wins.
  if (cookies.length > 0 && hasHeader('Cookie')) notes.push(`The -b cookies (${cookies.join('; ')}) were left out: the command also sets a Cookie header, and curl then sends only that header.`);
  else if (cookies.length > 0) headers.push({ key: 'Cookie', value: cookies.join('; ') });
  if (userAgent !== undefined && !hasHeader('User-Agent')) headers.push({ key: 'User-Agent', value: userAgent });
  if (referer !== undefined && !hasHeader('Referer')) headers.push({ key: 'Referer', value: referer });
  const contentType = [...headers].reverse().find((h) => h.key.toLowerCase() === 'content-type')?.value;

  // Body.
  let body: ImportedRequestData['body'];
  const isJson = data.some((d) => d.kind === 'json');
  if (isJson) {
    if (!hasHeader('Accept')) headers.push({ key: 'Accept', value: 'application/json' });
  }
  if (upload !== undefined) {
    if (data.length > 0 || formParts.length > 0) notes.push('The command gives both -T and data; the -T file was imported as the body.');
    if (upload === '-' || upload === '.') notes.push('The body is read from standard input (-T -), which is not part of the command; the body was left empty.');
    else {
      body = { type: 'binary', file: upload };
      if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?$/.test(url) && (url.endsWith('/') || !/:\/\/[^/]*\//.test(url))) {
        url = url.replace(/\/?$/, '/') + upload.split(/[\\/]/).pop();
      }
      notes.push(`The body is the file ${upload} on the computer where the command ran; choose it again if its path differs here.`);
    }
  } else if (data.length > 0 && get) {
    const pieces = joinData(data);
    if (pieces.some((p) => 'file' in p)) notes.push('Some query data is read from files by curl; the file names were kept in their place.');
    url = appendQuery(url, piecesToText(pieces));
  } else if (data.length > 0) {
    if (formParts.length > 0) notes.push('The command gives both -d and -F; curl refuses that. The -d data was imported as the body.');
    const pieces = joinData(data);
    const files = pieces.filter((p): p is Extract<typeof p, { file: string }> => 'file' in p);
    if (pieces.length === 1 && files.length === 1 && files[0]!.kind !== 'urlencode') {
      const file = files[0]!.file;
      if (file === '-') notes.push('The body is read from standard input (@-), which is not part of the command; the body was left empty.');
      else {
        body = { type: 'binary', file };
        if (isJson && !contentType) headers.splice(headers.findIndex((h) => h.key === 'Accept'), 0, { key: 'Content-Type', value: 'application/json' });
        notes.push(`The body is the file ${file} on the computer where the command ran; choose it again if its path differs here.`);
        if (files[0]!.kind === 'data' || files[0]!.kind === 'ascii') {
          notes.push(`curl -d leaves out the line breaks of ${file}; Ferry sends the file as it is (as --data-binary does).`);
        }
      }
    } else {
      if (files.length > 0) notes.push(`curl reads part of the body from ${files.map((f) => f.file).join(', ')}; the body keeps the file names in their place.`);
      body = dataBody(piecesToText(pieces), contentType, isJson, url, notes);
    }
  } else if (formParts.length > 0) {
    body = { type: 'multipart', multipart: formParts.map((p) => ({ ...p })) };
    const files = formParts.filter((p) => p.file).map((p) => p.value);
    if (files.length > 0) notes.push(`Form fields refer to files on the computer where the command ran (${files.join(', ')}); choose them again if their paths differ here.`);
  }

  // Method: -X wins; else HEAD with -I, GET with -G, PUT with -T, POST with data or form fields.
  const finalMethod = method ?? (head ? 'HEAD' : get ? 'GET' : upload !== undefined ? 'PUT' : data.length > 0 || formParts.length > 0 ? 'POST' : 'GET');

  // Auth.
  let auth: ImportedRequestData['auth'];
  if (bearer !== undefined) {
    auth = { type: 'bearer', token: bearer };
    if (user !== undefined) notes.push('The command gives both --oauth2-bearer and -u; the bearer token was imported.');
  } else if (awsSigv4 !== undefined) {
    auth = awsAuth(awsSigv4, user, notes);
  } else if (user !== undefined) {
    const { name: username, secret: password, hasSecret } = splitUser(user);
    auth = { type: authScheme, username, password };
    if (!hasSecret && username !== '') notes.push(`The command gives -u ${username} without a password, which curl asks for when it runs; the password was left empty. Set it in the request's Auth tab (auth.password in its file).`);
  }

  const request: ImportedRequestData = {
    name: options.name ?? nameFromUrl(url),
    method: finalMethod,
    url,
    ...(headers.length > 0 ? { headers } : {}),
    ...(body ? { body } : {}),
    ...(auth ? { auth } : {}),
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
  };
  return { request, notes };
}

/** `-u USER[:PASSWORD]`, split at the first colon; without one, no secret (curl asks for it). */
function splitUser(user: string): { name: string; secret: string; hasSecret: boolean } {
  const colon = user.indexOf(':');
  return colon < 0 ? { name: user, secret: '', hasSecret: false } : { name: user.slice(0, colon), secret: user.slice(colon + 1), hasSecret: true };
}

/**
 * `--aws-sigv4 provider1[:provider2[:region[:service]]]` with `-u KEY:SECRET`: AWS Signature V4
 * (an empty region or service is read from the host when signing). The secret signs; it is never
 * sent, so it must not become a Basic password.
 */
function awsAuth(spec: string, user: string | undefined, notes: string[]): ImportedRequestData['auth'] {
  const [provider = '', , region = '', service = ''] = spec.split(':');
  if (provider.toLowerCase() !== 'aws') {
    notes.push(`--aws-sigv4 "${spec}" signs for the provider "${provider}", which Ferry cannot sign for (AWS only); the request was imported without auth and the -u credentials were left out.`);
    return { type: 'none' };
  }
  const { name: accessKey, secret: secretKey } = splitUser(user ?? '');
  return {
    type: 'awsv4',
    accessKey,
    secretKey,
    ...(region ? { region } : {}),
    ...(service ? { service } : {}),
  };
}

function addHeader(headers: { key: string; value: string }[], raw: string, notes: string[]): void {
  if (raw.startsWith('@')) {
    notes.push(`Headers read from the file ${raw.slice(1)} are not imported.`);
    return;
  }
  const colon = raw.indexOf(':');
  const semicolon = raw.indexOf(';');
  // `Name;` sends an empty header; `Name:` with no value removes the header in curl, so it is skipped.
  if (colon < 0) {
    if (semicolon > 0 && raw.slice(semicolon + 1).trim() === '') headers.push({ key: raw.slice(0, semicolon).trim(), value: '' });
    else notes.push(`The header "${raw}" has no ":" and was skipped.`);
    return;
  }
  const key = raw.slice(0, colon).trim();
  const value = raw.slice(colon + 1).trim();
  if (value === '' || key === '') return;
  headers.push({ key, value });
}

function appendQuery(url: string, query: string): string {
  if (query === '') return url;
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const sep = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return base + sep + query + fragment;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function nameFromUrl(url: string): string {
  const withoutScheme = url.replace(HAS_SCHEME, '').split(/[?#]/)[0]!.replace(/\/+$/, '');
  return [...(withoutScheme || url || 'Imported request')].slice(0, MAX_NAME_LENGTH).join('');
}

function collectShellNotes(
  command: ReturnType<typeof findCurlCommand>,
  parsed: ReturnType<typeof parseCurlArgs>,
  ignored: { proxy: Set<string>; certificate: Set<string>; other: Set<string> },
  notes: string[],
): void {
  if (ignored.proxy.size > 0) notes.push(`Proxy options are not imported (${[...ignored.proxy].join(', ')}); Ferry sends through the proxy of this computer's settings (ferry config set proxy URL, or HTTP_PROXY / HTTPS_PROXY).`);
  if (ignored.certificate.size > 0) notes.push(`Certificate options are not imported (${[...ignored.certificate].join(', ')}); set them in this computer's settings caFiles and clientCertificates (ferry config set).`);
  const other = [...ignored.other, ...parsed.unknown];
  if (other.length > 0) notes.push(`These curl options are not supported and were ignored: ${other.join(', ')}.`);
  if (parsed.hasNext) notes.push('The command makes several requests (--next); only the first was imported.');
  if (command.laterCommands > 0) notes.push('The text holds more than one command; only the first curl command was imported.');
  if (command.pipedInto) notes.push('The command reads standard input from a pipe, which is not imported.');
  for (const redirect of command.redirects) {
    if (redirect.startsWith('<')) notes.push(`The command reads standard input with a redirect (${redirect.slice(0, 60)}), which is not imported.`);
  }
  if (command.dialect === 'posix' && command.args.some((a) => /\$\{?[A-Za-z_][A-Za-z0-9_]*|\$\(/.test(a))) {
    notes.push('The command uses shell variables or substitutions ($NAME); they were kept as written. Replace them with {{variables}}.');
  }
  if (command.expands) {
    const example = command.dialect === 'cmd' ? '%NAME%' : '$env:NAME';
    notes.push(`The command uses variables the shell would fill in (${example}); they were kept as written. Replace them with {{variables}}.`);
  }
}
