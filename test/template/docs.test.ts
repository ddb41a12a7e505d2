import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildVariableScope, render, RENDER_PLACES, requestValuesFromHttp } from '../../src/template/index.js';
import { rows } from './helpers.js';

const docs = await readFile(new URL('../../docs/templates.md', import.meta.url), 'utf8');

describe('docs/templates.md', () => {
  const block = /```template-examples\n([\s\S]*?)```/.exec(docs)?.[1] ?? '';
  const examples = block
    .split('\n')
    .filter((line) => line.includes('=>'))
    .map((line) => {
      const at = line.indexOf('=>');
      return [line.slice(0, at).trimEnd(), line.slice(at + 2).trim()] as const;
    });

  const variables = buildVariableScope({
    workspace: { variables: rows({ name: 'Ada', host: 'example.com', baseUrl: 'https://{{host}}/v1' }) },
  });
  const request = requestValuesFromHttp({
    method: 'POST',
    url: '/orders/42?q=red+shoes',
    rawHeaders: ['X-Trace', 't-1'],
    body: Buffer.from('{"a":1}'),
    pathParams: { id: '42' },
  });

  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(10);
  });
  it.each(examples)('%s', (template, expected) => {
    expect(render(template, 'mock.body', { variables, request })).toBe(expected);
  });

  it('lists every place of the Where table', () => {
    for (const place of Object.keys(RENDER_PLACES)) expect(docs).toContain(`\`${place}\``);
  });
});
