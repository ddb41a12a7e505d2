import { describe, expect, it } from 'vitest';
import { buildVariableScope, render, type VariableScopeInput } from '../../src/template/index.js';
import { rows } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function fill(input: VariableScopeInput, template: string, place: 'request' | 'mock.body' = 'request'): string {
  return render(template, place, { variables: buildVariableScope(input) });
}

describe('variables: order and definition (spec 2.10, 8.2)', () => {
  const cases: [what: string, input: VariableScopeInput, template: string, expected: string][] = [
    ['environment before workspace', { environment: { variables: rows({ a: 'env' }) }, workspace: { variables: rows({ a: 'ws' }) } }, '{{a}}', 'env'],
    ['workspace when the environment lacks it', { environment: { variables: rows({ b: 'env' }) }, workspace: { variables: rows({ a: 'ws' }) } }, '{{a}}', 'ws'],
    ['no active environment', { workspace: { variables: rows({ a: 'ws' }) } }, '{{a}}', 'ws'],
    ['first row of a key wins within a file', { workspace: { variables: [...rows({ a: 'first' }), ...rows({ a: 'second' })] } }, '{{a}}', 'first'],
    ['disabled defines nothing', { workspace: { variables: rows({ a: { value: 'off', enabled: false } }) } }, '{{a}}', '{{a}}'],
    ['disabled in environment falls through to workspace', { environment: { variables: rows({ a: { value: 'off', enabled: false } }) }, workspace: { variables: rows({ a: 'ws' }) } }, '{{a}}', 'ws'],
    ['a later enabled row defines a key whose first row is disabled', { workspace: { variables: [...rows({ a: { value: 'off', enabled: false } }), ...rows({ a: 'on' })] } }, '{{a}}', 'on'],
    ['empty value is defined', { workspace: { variables: rows({ a: '' }) } }, '[{{a}}]', '[]'],
    ['script value wins over the file', { environment: { variables: rows({ a: 'file' }), scriptValues: { a: 'script' } } }, '{{a}}', 'script'],
    ['script value on the workspace layer', { workspace: { variables: rows({ a: 'file' }), scriptValues: new Map([['a', 'script']]) } }, '{{a}}', 'script'],
    ['script-created variable', { environment: { variables: [], scriptValues: { made: 'by script' } } }, '{{made}}', 'by script'],
    ['script value of the environment beats the workspace file', { environment: { variables: [], scriptValues: { a: 'env script' } }, workspace: { variables: rows({ a: 'ws' }) } }, '{{a}}', 'env script'],
    ['script value does not enable a disabled row', { workspace: { variables: rows({ a: { value: 'x', enabled: false } }), scriptValues: { a: 'script' } } }, '{{a}}', '{{a}}'],
    // Values scripts stored as JSON data fill as Postman's String() gives them.
    ['script values that are not text', { environment: { variables: [], scriptValues: { n: 42.5, f: false, z: null, l: [1, 'two', null, { t: 3 }, [4, 5]], o: { a: 1 } } } }, '{{n}} {{f}} {{z}} {{l}} {{o}}', '42.5 false null 1,two,,[object Object],4,5 [object Object]'],
    ['--var wins over everything', { overrides: { a: 'cli' }, environment: { variables: rows({ a: 'env' }), scriptValues: { a: 's' } }, workspace: { variables: rows({ a: 'ws' }) } }, '{{a}}', 'cli'],
    ['--var defines new variables', { overrides: new Map([['only', 'cli']]) }, '{{only}}', 'cli'],
    ['--var value may hold placeholders', { overrides: { url: 'http://{{host}}' }, workspace: { variables: rows({ host: 'h' }) } }, '{{url}}', 'http://h'],
    ['names are case-sensitive', { workspace: { variables: rows({ Token: 'T' }) } }, '{{token}}{{Token}}', '{{token}}T'],
    ['a key named like an Object property', { workspace: { variables: [{ key: '__proto__', value: 'p', enabled: true, secret: false }, ...rows({ constructor: 'c' })], scriptValues: JSON.parse('{"__proto__":"script"}') } }, '{{__proto__}} {{constructor}} {{toString}}', 'script c {{toString}}'],
  ];
  it.each(cases)('%s', (_what, input, template, expected) => {
    expect(fill(input, template)).toBe(expected);
  });
});

describe('secret variables', () => {
  const secretInput = (stored: string | undefined): VariableScopeInput => ({
    environment: { variables: rows({ token: { secret: true } }) },
    workspace: { variables: rows({ token: 'workspace-token', wrap: 'Bearer {{token}}' }) },
    secrets: (key, origin) => (key === 'token' && origin === 'environment' ? stored : undefined),
  });

  it('are filled into requests from the secret store', () => {
    expect(fill(secretInput('s3cret'), '{{token}} / {{wrap}}')).toBe('s3cret / Bearer s3cret');
  });
  it('stay as written in requests when this computer stores no value (no fall-through)', () => {
    expect(fill(secretInput(undefined), '{{token}} / {{wrap}}')).toBe('{{token}} / Bearer {{token}}');
  });
  it('are never filled into server templates, directly or nested', () => {
    expect(fill(secretInput('s3cret'), '{{token}} / {{wrap}}', 'mock.body')).toBe('{{token}} / Bearer {{token}}');
  });
  it('without a secret store, stay as written even in requests', () => {
    expect(fill({ workspace: { variables: rows({ k: { secret: true, value: 'leaked-from-file?' } }) } }, '{{k}}')).toBe('{{k}}');
  });
  it('a script value of a secret variable stays secret', () => {
    const input: VariableScopeInput = { environment: { variables: rows({ k: { secret: true } }), scriptValues: { k: 'from-script' } } };
    expect(fill(input, '{{k}}')).toBe('from-script');
    expect(fill(input, '{{k}}', 'mock.body')).toBe('{{k}}');
  });
  it('a secret store lookup that hands back something other than text defines no value', () => {
    const store: Record<string, string> = {};
    const input: VariableScopeInput = {
      workspace: { variables: rows({ constructor: { secret: true }, toString: { secret: true } }) },
      secrets: (key) => store[key],
    };
    expect(fill(input, '{{constructor}} {{toString}}')).toBe('{{constructor}} {{toString}}');
  });

  it('scope.describe tells origin and secrecy', () => {
    const scope = buildVariableScope(secretInput('x'));
    expect(scope.describe('token')).toEqual({ origin: 'environment', secret: true });
    expect(scope.describe('wrap')).toEqual({ origin: 'workspace', secret: false });
    expect(scope.describe('none')).toBeUndefined();
    expect(scope.resolve('wrap', { allowSecrets: true })).toBe('Bearer x');
    expect(scope.resolve('wrap', { allowSecrets: false })).toBe('Bearer {{token}}');
    expect(scope.resolve('token', { allowSecrets: false })).toBeUndefined();
  });
});

describe('nested variables', () => {
  /** v1 → v2 → … → vN, and vN = "end". */
  function chain(length: number): VariableScopeInput {
    const spec: Record<string, string> = {};
    for (let i = 1; i < length; i++) spec[`v${i}`] = `<{{v${i + 1}}}`;
    spec[`v${length}`] = 'end';
    return { workspace: { variables: rows(spec) } };
  }

  it('resolves 10 levels', () => {
    expect(fill(chain(10), '{{v1}}')).toBe('<'.repeat(9) + 'end');
  });
  it('leaves the 11th level as written', () => {
    expect(fill(chain(11), '{{v1}}')).toBe('<'.repeat(10) + '{{v11}}');
  });
  it('counts levels from where the chain starts', () => {
    expect(fill(chain(11), '{{v2}}')).toBe('<'.repeat(9) + 'end');
  });
  it('gives the same answer for a level reached first deep, then shallow (cache per level)', () => {
    const scope = buildVariableScope(chain(12));
    expect(render('{{v1}}|{{v3}}', 'request', { variables: scope })).toBe(
      '<'.repeat(10) + '{{v11}}|' + '<'.repeat(9) + 'end',
    );
    expect(render('{{v3}}|{{v1}}', 'request', { variables: scope })).toBe(
      '<'.repeat(9) + 'end|' + '<'.repeat(10) + '{{v11}}',
    );
  });

  const cycles: [what: string, spec: Record<string, string>, template: string, expected: string][] = [
    ['self reference', { a: 'x{{a}}' }, '{{a}}', 'x{{a}}'],
    ['two-variable cycle', { a: 'A{{b}}', b: 'B{{a}}' }, '{{a}}|{{b}}', 'AB{{a}}|BA{{b}}'],
    ['three-variable cycle', { a: '{{b}}', b: '{{c}}', c: '{{a}}!' }, '{{a}}', '{{a}}!'],
    ['a cycle beside a good branch', { a: '{{a}}-{{b}}', b: 'ok' }, '{{a}}', '{{a}}-ok'],
    ['same variable twice is not a cycle', { a: '{{b}}{{b}}', b: 'x' }, '{{a}}', 'xx'],
  ];
  it.each(cycles)('cycles end: %s', (_what, spec, template, expected) => {
    expect(fill({ workspace: { variables: rows(spec) } }, template)).toBe(expected);
  });

  it('a value may use dynamic values, fresh at each use', () => {
    const scope = buildVariableScope({ workspace: { variables: rows({ id: '{{$uuid}}', two: '{{id}} {{id}}' }) } });
    const [first, second] = render('{{two}}', 'request', { variables: scope }).split(' ');
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
    const again = render('{{id}}', 'request', { variables: scope });
    expect(again).toMatch(UUID);
    expect([first, second]).not.toContain(again);
  });

  it('a value cannot use request values or {{message}}: they stay as written', () => {
    const scope = buildVariableScope({ workspace: { variables: rows({ m: '{{request.method}} {{message}} {{args}}' }) } });
    expect(render('{{m}} {{request.method}}', 'mock.body', { variables: scope })).toBe(
      '{{request.method}} {{message}} {{args}} ',
    );
  });
});

describe('dynamic values (spec 8.2)', () => {
  const formats: [name: string, pattern: RegExp][] = [
    ['$uuid', UUID],
    ['$guid', UUID],
    ['$randomUUID', UUID],
    ['$timestamp', /^\d{10}$/],
    ['$timestampMs', /^\d{13}$/],
    ['$isoTimestamp', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/],
    ['$randomInt', /^(?:0|[1-9]\d{0,2}|1000)$/],
    ['$randomBoolean', /^(?:true|false)$/],
    ['$randomAlphaNumeric', /^[a-z0-9]$/],
    ['$randomEmail', /^user\d{4}@example\.com$/],
  ];

  it.each(formats)('{{%s}} has its format, in every kind of place that fills variables', (name, pattern) => {
    for (const place of ['request', 'mock.body', 'ws.greeting', 'mcp.result'] as const) {
      expect(render(`{{${name}}}`, place)).toMatch(pattern);
      expect(render(`{{ ${name} }}`, place)).toMatch(pattern);
    }
  });

  it('timestamps are now', () => {
    const before = Date.now();
    const [seconds, millis, iso] = render('{{$timestamp}} {{$timestampMs}} {{$isoTimestamp}}', 'request').split(' ');
    const after = Date.now();
    expect(Number(millis)).toBeGreaterThanOrEqual(before);
    expect(Number(millis)).toBeLessThanOrEqual(after);
    expect(Number(seconds)).toBe(Math.floor(Number(millis) / 1000));
    expect(Date.parse(iso!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(iso!)).toBeLessThanOrEqual(after);
  });

  it('a new value at every occurrence', () => {
    const uuids = render(Array(50).fill('{{$uuid}}').join(' '), 'mock.body').split(' ');
    expect(new Set(uuids).size).toBe(50);
    const ints = render(Array(200).fill('{{$randomInt}}').join(' '), 'mock.body').split(' ').map(Number);
    expect(new Set(ints).size).toBeGreaterThan(50);
    expect(Math.min(...ints)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ints)).toBeLessThanOrEqual(1000);
    const booleans = new Set(render(Array(200).fill('{{$randomBoolean}}').join(' '), 'mock.body').split(' '));
    expect(booleans).toEqual(new Set(['true', 'false']));
  });

  it('a user variable of the same name wins; a disabled one does not', () => {
    const scope = buildVariableScope({
      environment: { variables: rows({ $uuid: 'mine', $timestamp: { value: 'off', enabled: false } }) },
    });
    expect(render('{{$uuid}}', 'mock.body', { variables: scope })).toBe('mine');
    expect(render('{{$timestamp}}', 'mock.body', { variables: scope })).toMatch(/^\d{10}$/);
  });

  it('other $ names stay as written, unless a user variable defines them', () => {
    expect(render('{{$randomFirstName}} {{$UUID}} {{$}} {{ $nope }}', 'request')).toBe(
      '{{$randomFirstName}} {{$UUID}} {{$}} {{ $nope }}',
    );
    const scope = buildVariableScope({ workspace: { variables: rows({ $randomFirstName: 'Ada' }) } });
    expect(render('{{$randomFirstName}}', 'request', { variables: scope })).toBe('Ada');
  });
});
