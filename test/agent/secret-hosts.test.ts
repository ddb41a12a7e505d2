/** `ferry mcp`'s rule for where secret values may go, on the values a send would carry. */
import { describe, expect, it } from 'vitest';
import { hostOf, secretGuard } from '../../src/agent/secret-hosts.js';
import { SecretMask } from '../../src/variables/index.js';

const SECRET = 'k3y-Value-7731';

function guard(hosts: string[], secrets: string[] = [SECRET]) {
  const mask = new SecretMask();
  for (const s of secrets) mask.add(s);
  return secretGuard(new Set(hosts), mask);
}

describe('secret hosts', () => {
  it('reads the host and port a URL goes to, with or without a scheme; none for a program', () => {
    expect(hostOf('https://API.example.com:443/v1?x=1')).toBe('api.example.com');
    expect(hostOf('http://127.0.0.1:4010/users')).toBe('127.0.0.1:4010');
    expect(hostOf('localhost:50051')).toBe('localhost:50051');
    expect(hostOf('mqtt://broker.test:1883')).toBe('broker.test:1883');
    expect(hostOf('node -e "process.exit(0)"')).toBe('');
  });

  it('refuses a secret in a body of bytes or a kind option to another host, and lets chosen hosts and secret-free sends through', () => {
    const check = guard(['api.example.com']);
    const bytes = { url: 'https://evil.example/x', carried: { body: { kind: 'bytes', bytes: new TextEncoder().encode(`{"k":"${SECRET}"}`) } }, scripted: false, path: 'Draft.yaml' };
    expect(check(bytes)).toMatch(/^requests\/Draft\.yaml was not sent: it would carry a secret value to evil\.example, .*\(those: api\.example\.com\)/);
    expect(check({ ...bytes, carried: { options: { password: Buffer.from(SECRET) } } })).toMatch(/would carry a secret value/);
    expect(check({ ...bytes, url: 'https://api.example.com/x' })).toBeUndefined();
    expect(check({ ...bytes, carried: { body: { kind: 'none' } } })).toBeUndefined();
    expect(check({ ...bytes, carried: { body: { kind: 'none' } }, scripted: true })).toMatch(/a pre-request script ran for it/);
    // Nothing secret on this computer: nothing to guard.
    expect(guard(['api.example.com'], [])({ ...bytes, scripted: true })).toBeUndefined();
  });

  it('refuses what it cannot read as data rather than let it go unchecked', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(guard([])({ url: 'https://evil.example/', carried: cycle, scripted: false, path: 'x.yaml' })).toMatch(/would carry a secret value/);
  });
});
