/**
 * Golden files: every target × the body types and auth types of the spec. A change to any
 * target's output shows up as a diff in test/codegen/golden/. Update on purpose with
 * `npx vitest run test/codegen -u`.
 */
import { describe, expect, test } from 'vitest';
import { TARGETS, toCode } from '../../src/codegen/index.js';
import { GOLDEN_BASE, GOLDEN_CASES } from './fixtures.js';

const EXTENSIONS: Record<string, string> = {
  'curl/bash': 'sh', 'curl/cmd': 'cmd', 'curl/powershell': 'ps1', 'httpie/httpie': 'sh', 'wget/wget': 'sh',
  'powershell/invoke-webrequest': 'ps1', 'javascript/fetch': 'mjs', 'javascript/axios': 'mjs', 'python/requests': 'py',
  'python/httpx': 'py', 'go/net-http': 'go', 'java/httpclient': 'java', 'kotlin/okhttp': 'kt', 'swift/urlsession': 'swift',
  'csharp/httpclient': 'cs', 'php/curl': 'php', 'ruby/net-http': 'rb', 'rust/reqwest': 'rs', 'dart/http': 'dart', 'c/libcurl': 'c',
};

describe.each(GOLDEN_CASES)('$name', ({ name, request }) => {
  test.each(TARGETS.map((t) => [t.id, t] as const))('%s', async (id, target) => {
    const code = toCode(request(GOLDEN_BASE), target);
    await expect(code).toMatchFileSnapshot(`golden/${name}/${id.replace('/', '-')}.${EXTENSIONS[id]}`);
  });
});

test('every target has a golden file extension', () => {
  expect(TARGETS.map((t) => t.id).filter((id) => !EXTENSIONS[id])).toEqual([]);
});
