import { describe, expect, it } from 'vitest';
import {
  buildVariableScope,
  compile,
  render,
  RENDER_PLACES,
  requestValuesFromHttp,
  type RenderPlace,
} from '../../src/template/index.js';
import { rows } from './helpers.js';

/**
 * The "Where" table of spec 8.2, written out again here from the spec (not read from the code),
 * plus the rows the spec states elsewhere: requests (2.1.11), the traffic panel (8.2), MCP (2.11),
 * and Socket.IO (not in the spec: our decision, see docs/templates.md).
 */
type Row = { templated: boolean; request: boolean; message: 'filled' | 'empty' | 'no'; mcp: boolean; secrets: boolean };
const off: Row = { templated: false, request: false, message: 'no', mcp: false, secrets: false };
const vars: Row = { templated: true, request: false, message: 'no', mcp: false, secrets: false };
const EXPECTED: Record<RenderPlace, Row> = {
  request: { ...vars, secrets: true },
  'panel.send': { ...vars, secrets: true },
  'mock.body': { ...vars, request: true },
  'mock.header': { ...vars, request: true },
  'mock.match': vars,
  'mock.backendUrl': vars,
  'mock.status': off,
  'mock.method': off,
  'mock.path': off,
  'sse.event': { ...vars, request: true },
  'sse.eventName': off,
  'sse.panel': { ...vars, request: true },
  'ws.greeting': vars,
  'ws.reply': { ...vars, message: 'filled' },
  'tcp.greeting': { ...vars, message: 'empty' },
  'socket.reply': { ...vars, message: 'filled' },
  'socket.hex': off,
  'socket.pattern': off,
  'dns.record': off,
  'relay.target': off,
  'socketio.greeting': vars,
  'socketio.reply': vars,
  'mcp.result': { ...vars, mcp: true },
  'mcp.resource': { ...vars, mcp: true },
  'mcp.prompt': { ...vars, mcp: true },
};

const PROBE =
  'R={{request.method}}|M={{message}}|A={{args.a}}|P={{params.p}}|V={{plain}}|D={{$randomEmail}}|S={{token}}';

const variables = buildVariableScope({
  workspace: { variables: rows({ plain: 'var', token: { secret: true } }) },
  secrets: () => 'SECRET',
});
const request = requestValuesFromHttp({ method: 'PATCH', url: '/x' });
const context = { variables, request, message: 'msg\n', mcp: { args: { a: 'arg' }, params: { p: 'param' } } };

function fields(rendered: string): Record<string, string> {
  return Object.fromEntries(rendered.split('|').map((part) => [part.slice(0, 1), part.slice(2)]));
}

describe('the Where table of spec 8.2', () => {
  it('has exactly the rows of the spec', () => {
    expect(Object.keys(RENDER_PLACES).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED) as RenderPlace[])('%s fills exactly its families', (place) => {
    const row = EXPECTED[place];
    const got = fields(render(PROBE, place, context));
    if (!row.templated) {
      expect(render(PROBE, place, context)).toBe(PROBE);
      expect(compile(PROBE, place).isStatic).toBe(true);
      return;
    }
    expect(got.R).toBe(row.request ? 'PATCH' : '{{request.method}}');
    expect(got.M).toBe(row.message === 'filled' ? 'msg' : row.message === 'empty' ? '' : '{{message}}');
    expect(got.A).toBe(row.mcp ? 'arg' : '{{args.a}}');
    expect(got.P).toBe(row.mcp ? 'param' : '{{params.p}}');
    expect(got.V).toBe('var');
    expect(got.D).toMatch(/^user\d{4}@example\.com$/);
    expect(got.S).toBe(row.secrets ? 'SECRET' : '{{token}}');
    expect(compile(PROBE, place).usesRequest).toBe(row.request);
    expect(compile(PROBE, place).usesRequestBody).toBe(false);
    expect(compile('{{ request.body }}', place).usesRequestBody).toBe(row.request);
    expect(compile('{{request.body.x}}', place).usesRequestBody).toBe(false);
  });

  it('refuses an unknown place, naming the known ones', () => {
    expect(() => render('x', 'mock.nope' as RenderPlace)).toThrow(/Unknown template place "mock.nope".*mock.body/);
    expect(() => compile('{{x}}', 'toString' as RenderPlace)).toThrow(/Unknown template place/);
  });
});

describe('{{message}} (WebSocket, TCP, UDP reply rules)', () => {
  const cases: [what: string, message: string | Uint8Array, expected: string][] = [
    ['text as is', 'hello', 'hello'],
    ['trailing LF removed', 'hello\n', 'hello'],
    ['trailing CRLF removed', 'hello\r\n', 'hello'],
    ['all trailing CR and LF removed', 'hello\r\n\n\r', 'hello'],
    ['inner line breaks kept', 'a\nb\n', 'a\nb'],
    ['leading line breaks kept', '\nhello', '\nhello'],
    ['bytes as UTF-8', new Uint8Array([0x68, 0xc3, 0xa9, 0x0a]), 'hé'],
    ['non-UTF-8 bytes become U+FFFD', new Uint8Array([0x61, 0xff, 0xfe, 0x62]), 'a\uFFFD\uFFFDb'],
    ['a client message is never expanded', '{{plain}} {{$uuid}} {{message}}', '{{plain}} {{$uuid}} {{message}}'],
    ['empty', '', ''],
  ];
  it.each(cases)('%s', (_what, message, expected) => {
    expect(render('{{message}}', 'ws.reply', { variables, message })).toBe(expected);
    expect(render('<{{message}}>', 'socket.reply', { variables, message })).toBe(`<${expected}>`);
  });

  it('must be written exactly so; with spaces it is a variable name', () => {
    const scope = buildVariableScope({ workspace: { variables: rows({ message: 'the variable' }) } });
    expect(render('{{message}}|{{ message }}', 'ws.reply', { variables: scope, message: 'm' })).toBe('m|the variable');
    expect(render('{{ message }}', 'ws.reply', { message: 'm' })).toBe('{{ message }}');
  });

  it('is not special in a WebSocket greeting (a variable of that name fills it)', () => {
    const scope = buildVariableScope({ workspace: { variables: rows({ message: 'the variable' }) } });
    expect(render('{{message}}', 'ws.greeting', { variables: scope, message: 'm' })).toBe('the variable');
    expect(render('{{message}}', 'ws.greeting', { message: 'm' })).toBe('{{message}}');
  });

  it('is always empty in a TCP greeting', () => {
    expect(render('[{{message}}]', 'tcp.greeting', { message: 'ignored' })).toBe('[]');
  });
});

describe('MCP values', () => {
  const mcp = {
    args: { city: 'Oslo', n: 3, flag: false, nested: { a: [1, 2] }, nil: null, inject: '{{plain}}' },
    params: { id: '42', inject: '{{$uuid}}' },
  };
  const cases: [template: string, expected: string][] = [
    ['{{args.city}}', 'Oslo'],
    ['{{ args.city }}', 'Oslo'],
    ['{{args.n}} {{args.flag}} {{args.nil}}', '3 false null'],
    ['{{args.nested}}', '{"a":[1,2]}'],
    ['{{args}}', JSON.stringify(mcp.args)],
    ['[{{args.missing}}] [{{params.missing}}] [{{args.nested.a}}]', '[] [] []'],
    ['{{params.id}}', '42'],
    ['{{args.inject}} {{params.inject}}', '{{plain}} {{$uuid}}'],
    ['{{args.toString}} {{params.constructor}}', ' '],
  ];
  it.each(cases)('%s', (template, expected) => {
    for (const place of ['mcp.result', 'mcp.resource', 'mcp.prompt'] as const) {
      expect(render(template, place, { variables, mcp })).toBe(expected);
    }
  });

  it('without a call: {{args}} is {} and names are empty', () => {
    expect(render('{{args}} [{{args.a}}] [{{params.p}}]', 'mcp.result')).toBe('{} [] []');
  });

  it('arguments JSON cannot hold does not throw', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(render('[{{args}}] [{{args.self}}] [{{args.big}}]', 'mcp.result', { mcp: { args: { self: cyclic, big: 1n } } })).toBe(
      '[] [] []',
    );
  });
});
