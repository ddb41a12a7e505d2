import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildVariableScope,
  compile,
  render,
  RENDER_PLACES,
  requestValuesFromHttp,
  type RenderPlace,
} from '../../src/template/index.js';
import { utf8Bytes } from '../../src/template/utf8.js';

const PLACES = Object.keys(RENDER_PLACES) as RenderPlace[];

/** Text made mostly of the characters that matter to the syntax, so brace tangles are common. */
const tangled = fc
  .array(fc.oneof(fc.constantFrom('{', '}', '{{', '}}', ' ', '\n', '\r', '$', '.', 'a', 'message', 'request.', 'args'), fc.string()), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), tangled);

const variableRow = fc.record({
  key: fc.oneof(fc.constantFrom('a', 'b', '$uuid', 'message', 'request.method', '__proto__'), fc.string({ maxLength: 8 })),
  value: anyText,
  enabled: fc.boolean(),
  secret: fc.boolean(),
});

describe('properties', () => {
  it('sizes are counted in UTF-8 bytes exactly as Node encodes the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ maxLength: 300 })), (text) => {
        expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
      { numRuns: 500 },
    );
    for (const text of ['\ud800', 'a\udc00b', '\ud83d\ude00', '\ud83d', 'é'.repeat(64), 'é'.repeat(65)]) expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });

  it('rendering never throws, at any place, on any text and any variables', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.constantFrom(...PLACES),
        fc.array(variableRow, { maxLength: 8 }),
        fc.string({ maxLength: 40 }),
        fc.array(fc.string({ maxLength: 10 }), { maxLength: 6 }),
        fc.uint8Array({ maxLength: 40 }),
        (text, place, variables, url, headers, body) => {
          const scope = buildVariableScope({ workspace: { variables }, secrets: (key) => `secret:${key}` });
          const request = requestValuesFromHttp({
            method: 'GET',
            url,
            rawHeaders: headers,
            body,
            pathParams: { id: url, '*': url },
          });
          const out = render(text, place, { variables: scope, request, message: body, mcp: { args: { a: url } } });
          expect(typeof out).toBe('string');
        },
      ),
      { numRuns: 400 },
    );
  });

  it('text without "{{" comes back unchanged', () => {
    fc.assert(
      fc.property(
        anyText.filter((text) => !text.includes('{{')),
        fc.constantFrom(...PLACES),
        (text, place) => {
          const scope = buildVariableScope({ workspace: { variables: [{ key: 'a', value: 'A', enabled: true, secret: false }] } });
          expect(render(text, place, { variables: scope })).toBe(text);
          expect(compile(text, place).render({ variables: scope })).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('text naming nothing defined comes back unchanged', () => {
    // Names that are neither variables here, nor dynamic values, nor families of any place.
    const undefinedName = fc.string({ maxLength: 10 }).filter((s) => !/^[$]|^(request|args|params)\.|^(args|message)$/.test(s.trim()));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 10 }), undefinedName)), fc.constantFrom(...PLACES), (parts, place) => {
        const text = parts.map(([literal, name]) => `${literal}{{${name}}}`).join('');
        expect(render(text, place)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  describe('injection is impossible: client text comes back literally', () => {
    const injected = fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('{{$uuid}}', '{{secretName}}', '{{ plain }}', '{{request.body}}', '{{message}}', '{{args}}'), fc.string({ maxLength: 10 }))
      .map(([before, placeholder, after]) => before + placeholder + after);
    const scope = buildVariableScope({
      workspace: {
        variables: [
          { key: 'plain', value: 'PLAIN', enabled: true, secret: false },
          { key: 'secretName', value: '', enabled: true, secret: true },
        ],
      },
      secrets: () => 'LEAKED',
    });

    it('in a query value, a header, the body and path parameters', () => {
      fc.assert(
        fc.property(injected, (value) => {
          const plainValue = value.replace(/[\r\n]/g, ' ');
          const request = requestValuesFromHttp({
            method: 'POST',
            url: `/x?q=${encodeURIComponent(value)}`,
            rawHeaders: ['X-In', plainValue],
            body: Buffer.from(value),
            pathParams: { id: encodeURIComponent(value) },
          });
          const template = compile('{{request.query.q}}\u0000{{request.headers.x-in}}\u0000{{request.body}}\u0000{{request.params.id}}', 'mock.body');
          expect(template.render({ variables: scope, request })).toBe([value, plainValue, value, value].join('\u0000'));
        }),
        { numRuns: 300 },
      );
    });

    it('in a message answered by a reply rule', () => {
      fc.assert(
        fc.property(injected, (value) => {
          const expected = value.replace(/[\r\n]+$/, '');
          expect(render('{{message}}', 'ws.reply', { variables: scope, message: value })).toBe(expected);
          expect(render('{{message}}', 'socket.reply', { variables: scope, message: Buffer.from(value) })).toBe(expected);
        }),
        { numRuns: 300 },
      );
    });

    it('in MCP arguments and URI parameters', () => {
      fc.assert(
        fc.property(injected, (value) => {
          expect(render('{{args.a}}|{{params.p}}', 'mcp.result', { variables: scope, mcp: { args: { a: value }, params: { p: value } } })).toBe(
            `${value}|${value}`,
          );
        }),
        { numRuns: 300 },
      );
    });

    it('a secret never reaches a server answer, whatever the template', () => {
      fc.assert(
        fc.property(anyText, fc.constantFrom(...PLACES.filter((p) => p !== 'request' && p !== 'panel.send')), (text, place) => {
          expect(render(`${text}{{secretName}}${text}`, place, { variables: scope })).not.toContain('LEAKED');
        }),
        { numRuns: 300 },
      );
    });
  });
});
