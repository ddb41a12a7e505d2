/** The form of a tool's input schema (CatalogPicker): fields by type, and values checked before anything is sent. */
import { describe, expect, it } from 'vitest';
import { formFields, formInputs, formValue } from '../../src/app/web/schema-form.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Who' },
    count: { type: 'integer' },
    ratio: { type: ['number', 'null'] },
    loud: { type: 'boolean' },
    mood: { enum: ['happy', 'sad', 3] },
    tags: { type: 'array', items: { type: 'string' } },
    extra: {},
  },
  required: ['name', 'count'],
};

describe('a form from a JSON Schema', () => {
  const fields = formFields(schema);

  it('has one field per property, by type; arrays, objects and untyped values as JSON', () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'string', true], ['count', 'integer', true], ['ratio', 'number', false], ['loud', 'boolean', false], ['mood', 'enum', false], ['tags', 'json', false], ['extra', 'json', false],
    ]);
    expect(fields.find((f) => f.name === 'mood')!.options).toEqual(['"happy"', '"sad"', '3']);
  });

  it('reads the values back typed; empty optional fields are left out', () => {
    expect(formValue(fields, { name: 'Ann', count: '3', loud: true, mood: '3', tags: '["a"]', ratio: '' })).toEqual({ value: { name: 'Ann', count: 3, loud: true, mood: 3, tags: ['a'] } });
  });

  it('names the first wrong value in one line: a missing required field, wrong numbers, JSON that does not parse', () => {
    expect(formValue(fields, { count: '1' })).toEqual({ error: 'name is required.' });
    expect(formValue(fields, { name: 'a', count: 'three' })).toEqual({ error: 'count must be a whole number, not "three".' });
    expect(formValue(fields, { name: 'a', count: '1.5' })).toEqual({ error: 'count must be a whole number, not "1.5".' });
    expect(formValue(fields, { name: 'a', count: '1', ratio: 'NaN' })).toMatchObject({ error: expect.stringMatching(/^ratio must be a number/) });
    expect(formValue(fields, { name: 'a', count: '1', tags: '[1,' })).toMatchObject({ error: expect.stringMatching(/^tags is not valid JSON/) });
  });

  it('shows arguments already written; text that is not JSON, a huge or hostile schema do not break it', () => {
    expect(formInputs(fields, '{"name":"Bo","count":2,"loud":true,"tags":["x"]}')).toEqual({ name: 'Bo', count: '2', loud: true, tags: '["x"]' });
    expect(formInputs(fields, 'not json')).toEqual({});
    expect(formFields({ type: 'object' })).toEqual([]);
    expect(formFields({ properties: { __proto__: { type: 'string' }, constructor: { type: 'number' } } as never }).map((f) => f.name)).toEqual(['constructor']);
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, { type: 'string' }]));
    expect(formFields({ properties: many })).toHaveLength(5000);
  });
});
