/** The one declaration drives writing: declared field order, defaults left out, unknown fields after the known ones. */
import { describe, expect, it } from 'vitest';
import { parseResource, serializeResource } from '../../src/model/index.js';
import { resourceText } from '../../src/workspace/index.js';

describe('writing a fresh file from the model', () => {
  it('orders fields as declared, omits defaults, and puts unknown fields last', () => {
    const parsed = parseResource('request', {
      'x-first': 1,
      docs: 'Notes',
      url: 'http://127.0.0.1/',
      seq: 0,
      kind: 'http',
      method: 'POST',
      headers: [{ enabled: true, value: 'v', key: 'k', 'x-row': true }],
      auth: { type: 'inherit' },
      body: { type: 'none', contentType: 'text/plain' },
      name: 'Made',
      settings: { repeat: { intervalMs: 1000, timeoutMs: 5 } },
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.body.form).toEqual([]); // defaults filled on read
    const data = serializeResource('request', parsed.value);
    expect(Object.keys(data)).toEqual(['name', 'method', 'url', 'headers', 'settings', 'docs', 'x-first']);
    expect(resourceText('request', parsed.value)).toBe(
      [
        'name: Made',
        'method: POST',
        'url: http://127.0.0.1/',
        'headers:',
        '  - key: k',
        '    value: v',
        '    x-row: true',
        'settings:',
        '  repeat:',
        '    timeoutMs: 5',
        'docs: Notes',
        'x-first: 1',
        '',
      ].join('\n'),
    );
  });

  it('keeps `settings.repeat` with every field at its default: being there switches repeating on', async () => {
    const parsed = parseResource('request', { name: 'Poll', url: 'http://127.0.0.1/', settings: { repeat: {} } });
    if (!parsed.ok) throw new Error('fixture');
    expect(serializeResource('request', parsed.value)).toEqual({ name: 'Poll', url: 'http://127.0.0.1/', settings: { repeat: {} } });
    const text = 'name: Poll\nurl: http://127.0.0.1/\nsettings:\n  repeat: {}\n';
    expect(resourceText('request', parsed.value)).toBe(text);
    // Rewritten over the file as it was (the in-place edit), it stays too.
    expect(resourceText('request', { ...parsed.value, name: 'Poll 2' }, text)).toBe(text.replace('Poll', 'Poll 2'));
    // An empty section whose presence means nothing is still left out.
    const stream = parseResource('request', { name: 'S', kind: 'sse', settings: { stream: {} } });
    if (!stream.ok) throw new Error('fixture');
    expect(serializeResource('request', stream.value)).toEqual({ name: 'S', kind: 'sse' });
  });

  it('time fields hold at most 2^31 - 1 ms (a longer Node timer fires at once)', () => {
    for (const [kind, value, at] of [
      ['request', { name: 'R', settings: { timeoutMs: 3_000_000_000 } }, ['settings', 'timeoutMs']],
      ['request', { name: 'R', settings: { repeat: { intervalMs: 3_000_000_000 } } }, ['settings', 'repeat', 'intervalMs']],
      ['loadtest', { name: 'L', thinkTimeMs: 3_000_000_000 }, ['thinkTimeMs']],
    ] as const) {
      const parsed = parseResource(kind, value);
      expect(parsed.ok, kind).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.problems[0]!.path).toEqual(at);
      expect(parsed.problems[0]!.message).toMatch(/2147483647/);
    }
    expect(parseResource('request', { name: 'R', settings: { timeoutMs: 2_147_483_647 } }).ok).toBe(true);
  });

  it('a missing field says so', () => {
    const missing = parseResource('loadtest', { name: 'L', targets: [{ weight: 2 }] });
    expect(missing.ok).toBe(false);
    if (missing.ok) return;
    expect(missing.problems).toEqual([{ path: ['targets', 0, 'request'], message: 'expected text, got nothing (the field is missing: add it)' }]);
  });

  it('a missing name is an empty one (spec 2.1.1; reading warns, read-resource.ts)', () => {
    const unnamed = parseResource('request', { url: 'http://127.0.0.1/' });
    expect(unnamed.ok && unnamed.value.name).toBe('');
  });

  it('the workspace file: auth defaults to none there, so none is omitted and inherit is written', () => {
    const none = parseResource('workspace', { version: 1, name: 'W', auth: { type: 'none' } });
    const inherit = parseResource('workspace', { version: 1, name: 'W', auth: { type: 'inherit' } });
    if (!none.ok || !inherit.ok) throw new Error('fixture');
    expect(serializeResource('workspace', none.value)).toEqual({ version: 1, name: 'W' });
    expect(serializeResource('workspace', inherit.value)).toEqual({ version: 1, name: 'W', auth: { type: 'inherit' } });
  });

  it('wrong types give the field path and a readable message', () => {
    const bad = parseResource('request', { name: 'x', headers: [{ key: 'a', enabled: 'yes' }], body: { type: 'yaml' } });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problems).toEqual([
      { path: ['headers', 0, 'enabled'], message: 'expected true or false, got text "yes"' },
      { path: ['body', 'type'], message: 'expected one of none, json, text, xml, formUrlencoded, multipart, binary, graphql, got text "yaml"' },
    ]);
    const auth = parseResource('request', { name: 'x', auth: { type: 'magic' } });
    expect(!auth.ok && auth.problems[0]!.message).toMatch(/^auth type must be one of inherit, none, .*, asap, got text "magic"$/);
    const bare = parseResource('request', { name: 'x', auth: 'bearer' });
    expect(!bare.ok && bare.problems[0]).toEqual({ path: ['auth'], message: 'expected a mapping with a type, got text "bearer"' });
    const binary = parseResource('request', { name: new Uint8Array([1]) });
    expect(!binary.ok && binary.problems[0]!.message).toBe('expected text, got binary data');
  });
});

describe('a server file with sections of other kinds that do not fit the format (2.11: "the other sections are kept")', () => {
  it('reads, and writes those sections back exactly as they were', () => {
    const data = { name: 'S', kind: 'websocket', websocket: { mode: 'echo' }, http: { routes: 'oops', cors: 'yes' }, socket: { mode: 'shout', 'x-note': 1 } };
    const parsed = parseResource('server', data);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.websocket?.greeting).toBe(''); // the used section has its defaults
    expect(serializeResource('server', parsed.value)).toEqual({ name: 'S', kind: 'websocket', http: { routes: 'oops', cors: 'yes' }, socket: { mode: 'shout', 'x-note': 1 } });
  });

  it('still refuses a problem in the used section or outside the sections, naming only those', () => {
    const inUsed = parseResource('server', { name: 'S', kind: 'udp', socket: { mode: 'shout' }, http: { routes: 'oops' } });
    expect(inUsed.ok).toBe(false);
    if (!inUsed.ok) expect(inUsed.problems.map((p) => p.path.join('.'))).toEqual(['socket.mode']);
    expect(parseResource('server', { name: 'S', port: 'x', http: { routes: 'oops' } }).ok).toBe(false);
    expect(parseResource('server', { name: 'S', kind: 'gopher', http: { routes: 'oops' } }).ok).toBe(false);
  });
});
