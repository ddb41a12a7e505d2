/** Faults and delays seen from a real client: error, reset, hang, faultPercent, delayMs. */
import { describe, expect, it } from 'vitest';
import { eventually, exchanges, mock, send } from './helpers.js';

describe('mock route faults', () => {
  it('fault: error answers 500 with an explanation', async () => {
    const { url, handle } = await mock({ routes: [{ name: 'boom', path: '/e', body: 'never', fault: 'error' }] });
    const answer = await send(`${url}/e`);
    expect(answer.status).toBe(500);
    expect(answer.body).toContain('fault: error');
    expect(answer.body).not.toContain('never');
    await eventually(async () => exchanges(handle).some((r) => r.detail.note === 'error' && r.detail.route === 'boom' && r.detail.status === 500));
  });

  it('fault: reset destroys the connection; the client sees a connection error', async () => {
    const { url, handle } = await mock({ routes: [{ name: 'cut', path: '/r', body: 'x', fault: 'reset' }] });
    const error = await send(`${url}/r`).then(() => undefined, (e: NodeJS.ErrnoException) => e);
    expect(error).toBeDefined();
    expect(['ECONNRESET', 'ECONNABORTED', 'EPIPE']).toContain(error!.code);
    await eventually(async () => exchanges(handle).some((r) => r.detail.note === 'reset' && r.detail.status === 0));
  });

  it('fault: hang never answers; the client times out and the log says so', async () => {
    const { url, handle } = await mock({ routes: [{ name: 'slow', path: '/h', body: 'x', fault: 'hang' }] });
    const error = await send(`${url}/h`, { timeoutMs: 300 }).then(() => undefined, (e: NodeJS.ErrnoException) => e);
    expect(error?.code).toBe('TIMEOUT');
    await eventually(async () => exchanges(handle).some((r) => r.detail.note === 'hang' && r.detail.route === 'slow'));
  });

  it('a hung request ends when the server stops, and stop does not wait for it', async () => {
    const { url, handle } = await mock({ routes: [{ path: '/h', fault: 'hang' }] });
    const pending = send(`${url}/h`, { timeoutMs: 10_000 }).then(() => 'answered', (e: NodeJS.ErrnoException) => e.code);
    await eventually(async () => handle.servers[0]!.openConnections() === 1);
    await handle.stop();
    expect(await pending).toMatch(/ECONNRESET|socket hang up/i);
    expect(handle.servers[0]!.openConnections()).toBe(0);
  });

  it('faultPercent decides how often the fault happens', async () => {
    const { url } = await mock({
      routes: [
        { name: 'never', path: '/never', body: 'fine', fault: 'error', faultPercent: 0 },
        { name: 'half', path: '/half', body: 'fine', fault: 'error', faultPercent: 50 },
      ],
    });
    for (let i = 0; i < 20; i++) expect((await send(`${url}/never`)).status).toBe(200);
    const statuses = new Set<number>();
    for (let i = 0; i < 200 && statuses.size < 2; i++) statuses.add((await send(`${url}/half`)).status);
    expect([...statuses].sort()).toEqual([200, 500]);
  });

  it('faultPercent left out is 100 (spec 2.11), as 100 written is: every request gets the fault', async () => {
    const { url } = await mock({
      routes: [
        { name: 'default', path: '/default', body: 'fine', fault: 'error' },
        { name: 'all', path: '/all', body: 'fine', fault: 'error', faultPercent: 100 },
      ],
    });
    for (const route of ['default', 'all']) {
      const statuses = new Set<number>();
      for (let i = 0; i < 50; i++) statuses.add((await send(`${url}/${route}`)).status);
      expect([...statuses], route).toEqual([500]);
    }
  });

  it('delayMs waits before answering; a client that leaves first is logged as such', async () => {
    const { url, handle } = await mock({ routes: [{ name: 'late', path: '/d', body: 'late', delayMs: 150 }] });
    const started = Date.now();
    const answer = await send(`${url}/d`);
    expect(answer.body).toBe('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const error = await send(`${url}/d`, { timeoutMs: 30 }).then(() => undefined, (e: NodeJS.ErrnoException) => e.code);
    expect(error).toBe('TIMEOUT');
    await eventually(async () => exchanges(handle).some((r) => r.detail.note === 'aborted' && r.detail.route === 'late'));
  });
});
