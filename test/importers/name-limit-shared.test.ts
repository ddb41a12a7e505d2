/** The importers cut long names to the one name limit the workspace checks (spec 2.1.5), not a copy of it. */
import { describe, expect, it } from 'vitest';
import { curlToRequest } from '../../src/importers/curl/index.js';
import { cleanName } from '../../src/importers/openapi/names.js';
import { checkDisplayName, MAX_NAME_LENGTH } from '../../src/workspace/index.js';

describe('imported names and the workspace name limit', () => {
  it("a curl request named after a long URL is cut to the workspace's limit, which its check accepts", () => {
    const name = String(curlToRequest(`curl http://127.0.0.1:9/${'p'.repeat(300)}`).request.name);
    expect([...name]).toHaveLength(MAX_NAME_LENGTH);
    expect(checkDisplayName(name)).toBeUndefined();
    expect(checkDisplayName(`${name}x`)).toMatch(/at most 200 characters/);
  });

  it("an OpenAPI summary over the limit ends in … at the workspace's limit, which its check accepts", () => {
    const name = cleanName('é'.repeat(300))!;
    expect([...name]).toHaveLength(MAX_NAME_LENGTH);
    expect(name.endsWith('…')).toBe(true);
    expect(checkDisplayName(name)).toBeUndefined();
    expect(cleanName('é'.repeat(MAX_NAME_LENGTH))).toBe('é'.repeat(MAX_NAME_LENGTH));
  });
});
