/**
 * `ferry app` in Chromium, the servers of issue 26: a WebSocket server started in the servers
 * panel, a real client's (`ws`) message seen in its traffic, a message typed in the panel (with a
 * variable) sent back to that client; the server editor refusing a bad section at its line (the
 * file untouched) and saving a good one; a DNS server's traffic with its decoded answer (queried
 * by `kdig` when installed, else dns-packet over UDP); the list's connection count and the send
 * picker following the traffic, also past the table's 500 rows; the autoStart rule across two app starts;
 * the kinds' own words (picker, directions, the editor's hint) as `GET /api/server-kinds` gives them.
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import dnsPacket from 'dns-packet';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import WebSocket from 'ws';
import { type AppServer, startAppServer } from '../../src/app/server/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { ARTIFACTS, browserMissing, closeAppPage, drawn, ensureBuiltUi, gotoApp, holdRequest, launchBrowser, openWorkspacePage, WEB_ROOT } from './browser.js';
import { freePort } from '../support/servers/index.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests (servers) skipped: ${missing}`);

const KDIG = '/usr/bin/kdig';

async function openPage(browser: Browser, app: AppServer): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  await gotoApp(page, app);
  return page;
}

/** Asks the DNS server for `name`'s A record: with kdig when installed (a real third-party client), else dns-packet. */
async function queryA(port: number, name: string): Promise<string> {
  if (existsSync(KDIG)) {
    const { stdout } = await promisify(execFile)(KDIG, ['@127.0.0.1', '-p', String(port), '+short', '+notcp', '+timeout=3', name, 'A']);
    return stdout.trim();
  }
  const udp = dgram.createSocket('udp4');
  const answer = new Promise<Buffer>((resolve) => udp.once('message', (m) => resolve(m)));
  udp.send(dnsPacket.encode({ type: 'query', id: 1, questions: [{ type: 'A', name }] }), port, '127.0.0.1');
  const decoded = dnsPacket.decode(await answer);
  udp.close();
  return String((decoded.answers?.[0] as { data?: unknown } | undefined)?.data ?? '');
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: servers', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ ws, app, browser, page } = await openWorkspacePage({
      'servers/chat.yaml': '# a chat for the test\nname: Chat\nkind: websocket\nwebsocket:\n  mode: manual\n',
      'servers/names.yaml': { name: 'Names', kind: 'dns', dns: { records: [{ name: 'api.test', type: 'A', value: '127.0.0.9' }] } },
    }, { workspace: { variables: [{ key: 'who', value: 'Ada' }] }, viewport: { width: 1400, height: 1000 } }));
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  it('WebSocket: started in the panel, a client message in its traffic, a message sent back from the panel reaches that client', async () => {
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    const panel = page.getByLabel('Servers', { exact: true });
    await panel.getByRole('button', { name: 'Start Chat' }).click();
    // Its URL shows once the start has answered: longer than a step's 8 s on a loaded machine.
    await page.getByTestId('server-url-chat').waitFor({ timeout: 30_000 });
    const url = (await page.getByTestId('server-url-chat').textContent())!;
    const client = new WebSocket(url.replace(/^http/, 'ws'));
    const got: string[] = [];
    client.on('message', (data) => got.push(String(data)));
    await new Promise<void>((resolve, reject) => {
      client.once('open', () => resolve());
      client.once('error', reject);
    });
    // The list's connection count follows the traffic, without a refresh.
    await expect.poll(() => page.getByTestId('server-connections-chat').textContent()).toBe('1 open');
    client.send('hello from a real client');
    const traffic = panel.getByRole('table', { name: 'Traffic' });
    await expect.poll(() => traffic.textContent()).toContain('hello from a real client');

    const send = panel.getByRole('group', { name: 'Send to clients' });
    const peer = `127.0.0.1:${(client as unknown as { _socket: { localPort: number } })._socket.localPort}`;
    // The client shows in the "to" picker: pick it (one client, not all).
    await expect.poll(() => send.getByLabel('Send to').textContent()).toContain(peer);
    await send.getByLabel('Send to').selectOption(peer);
    await send.getByLabel('Message to send').fill('hi {{who}}, from the panel');
    await send.getByRole('button', { name: 'Push' }).click();
    await expect.poll(() => send.getByRole('status').textContent()).toBe('Sent to 1 client.');
    await expect.poll(() => got).toEqual(['hi Ada, from the panel']);
    await expect.poll(() => traffic.textContent()).toContain('"hi Ada, from the panel"');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-servers-send.png') });

    // The client leaves: sending to it is refused with the reason.
    client.close();
    await expect.poll(() => traffic.textContent()).toContain('close code 1005');
    await expect.poll(() => page.getByTestId('server-connections-chat').textContent()).toBe('0 open');
    await send.getByRole('button', { name: 'Push' }).click();
    await expect.poll(() => send.getByRole('alert').textContent()).toContain(`Client ${peer} of server "chat" is no longer connected`);
  });

  it('the editor: a bad section is refused at its line and nothing is written; a good one is saved in place', async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    const file = path.join(ws.root, 'servers/chat.yaml');
    const before = await fs.readFile(file, 'utf8');
    // Its traffic alone (the rename below: the filter and the rows follow the new id).
    await panel.getByLabel('Traffic of').selectOption('chat');
    await panel.getByRole('button', { name: 'Edit Chat' }).click();
    const editor = page.getByRole('dialog', { name: 'Server editor' });
    const yaml = editor.getByLabel('websocket section (YAML)');
    await expect.poll(() => yaml.textContent()).toContain('mode: manual');
    await yaml.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('mode: rules\nrules:\n  - match: sometimes\n    pattern: ping\n');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => editor.getByTestId('server-edit-error').textContent()).toContain('websocket.rules[0].match: expected one of any, contains, exact, regex, got text "sometimes" (line 3, column 12); nothing was saved.');
    // Shown at its place: the editor marks line 3.
    await expect.poll(() => editor.locator('.cm-lintRange-error').count()).toBeGreaterThan(0);
    await expect.poll(() => editor.locator('.cm-lintRange-error').first().textContent()).toBe('sometimes');
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-server-editor-error.png') });
    // A click beside the editor would drop what was typed: it asks, and Cancel keeps the editor open with it.
    const asked = new Promise<string>((resolve) => page.once('dialog', (d) => { resolve(d.message()); void d.dismiss(); }));
    await page.mouse.click(5, 5);
    expect(await asked).toBe('Discard your changes to this server? (Cancel, then Save to keep them.)');
    expect(await yaml.textContent()).toContain('sometimes');
    // Esc closes it as it closes the app's other dialogs, asking first the same way.
    const askedByEsc = new Promise<string>((resolve) => page.once('dialog', (d) => { resolve(d.message()); void d.dismiss(); }));
    await page.keyboard.press('Escape');
    expect(await askedByEsc).toBe('Discard your changes to this server? (Cancel, then Save to keep them.)');
    expect(await yaml.textContent()).toContain('sometimes');

    // Another editor changes the file meanwhile: the bar says so at once; the save is refused
    // with the file kept, and Keep mine saves over the version the refusal gave.
    const outside = `${before}  greeting: from another editor\n`;
    await fs.writeFile(file, outside);
    await editor.getByRole('group', { name: 'Changed on disk' }).waitFor({ timeout: 10_000 });
    await yaml.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('mode: rules\nrules:\n  - match: exact\n    pattern: ping\n    reply: pong {{who}}\n');
    await editor.getByLabel('Server name').fill('Chat room');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => editor.getByTestId('server-edit-error').textContent()).toBe('servers/chat.yaml changed on disk since the app read it; nothing was saved.');
    expect(await fs.readFile(file, 'utf8')).toBe(outside);
    await editor.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    // Its new name renamed its file, so its id (2.1.4): the editor follows it.
    await expect.poll(() => editor.getByRole('status').textContent()).toBe('Saved servers/Chat room.yaml.');
    await expect.poll(() => editor.getByRole('heading').first().textContent()).toContain('servers/Chat room.yaml');
    await expect(fs.stat(file)).rejects.toThrow(/ENOENT/);
    const text = await fs.readFile(path.join(ws.root, 'servers/Chat room.yaml'), 'utf8');
    expect(text).toBe('# a chat for the test\nname: Chat room\nkind: websocket\nwebsocket:\n  mode: rules\n  rules:\n    - match: exact\n      pattern: ping\n      reply: pong {{who}}\n');
    // Saved, nothing left to lose: Esc closes it at once.
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);
    // Its traffic so far follows the new id, and so does the filter (its option exists once the
    // server list has been read again after the save, hence the polls).
    await expect.poll(() => panel.getByLabel('Traffic of').inputValue()).toBe('Chat room');
    const rows = panel.getByRole('table', { name: 'Traffic' });
    await expect.poll(() => rows.textContent()).toContain('hello from a real client');
    // The Server column says its name (the list's), not the file's.
    await expect.poll(async () => new Set(await rows.locator('tbody tr td:nth-child(2)').allTextContents())).toEqual(new Set(['Chat room']));
    await panel.getByLabel('Traffic of').selectOption('');
    // The running server started again under its new id, with the rule.
    await page.getByTestId('server-url-Chat room').waitFor({ timeout: 30_000 });
    const url = (await page.getByTestId('server-url-Chat room').textContent())!;
    const client = new WebSocket(url.replace(/^http/, 'ws'));
    const reply = new Promise<string>((resolve) => client.once('message', (d) => resolve(String(d))));
    await new Promise<void>((resolve) => client.once('open', () => resolve()));
    client.send('ping');
    expect(await reply).toBe('pong Ada');
    client.close();
  });

  it('what differs by kind is drawn from GET /api/server-kinds: the new-server picker, the direction words, the editor\'s hint', async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    const picker = panel.getByLabel('New server kind');
    await expect.poll(() => picker.locator('option').allTextContents()).toEqual(['HTTP mock API', 'WebSocket', 'Server-sent events', 'Socket.IO', 'MCP', 'TCP', 'UDP', 'DNS', 'TCP relay']);
    await expect.poll(() => picker.inputValue()).toBe('websocket');
    // The chat's messages so far: in and out, in the words its kind gives (the table is read
    // again after the filter's change at the end of the test before).
    const ways = () => panel.getByRole('table', { name: 'Traffic' }).locator('tbody tr td:nth-child(3)').allTextContents();
    await expect.poll(ways).toContain('from client');
    await expect.poll(ways).toContain('to client');
    await panel.getByRole('button', { name: 'Edit Chat room' }).click();
    const editor = page.getByRole('dialog', { name: 'Server editor' });
    await expect.poll(() => editor.locator('p.muted.small').textContent()).toBe('websocket: mode (echo, rules, manual, discard), greeting, rules (match, pattern, reply, delayMs), lineEnding, cors');
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);
  });

  it("a file changed on disk: taken at once without edits, the bar at once with them; its two choices; Keep mine holds even when the save that keeps it is refused first for a slip in the YAML", async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    const file = path.join(ws.root, 'servers/Chat room.yaml');
    const saved = await fs.readFile(file, 'utf8');
    await panel.getByRole('button', { name: 'Edit Chat room' }).click();
    const editor = page.getByRole('dialog', { name: 'Server editor' });
    const yaml = editor.getByLabel('websocket section (YAML)');
    await expect.poll(() => yaml.textContent()).toContain('pong {{who}}');
    const error = editor.getByTestId('server-edit-error');
    const refused = 'servers/Chat room.yaml changed on disk since the app read it; nothing was saved.';

    // Changed on disk while the editor holds no edit: it shows the file's version at once.
    await fs.writeFile(file, `${saved}  greeting: seen at once\n`);
    await expect.poll(() => yaml.textContent()).toContain('greeting: seen at once');
    await fs.writeFile(file, saved);
    await expect.poll(() => yaml.textContent()).not.toContain('greeting: seen at once');

    // Changed on disk while it holds one: the bar shows at once, before any Save. Take the file's
    // version: the editor shows it, the bar goes.
    await editor.getByLabel('Server name').fill('Chat mine');
    const outside = `${saved}  greeting: hello from outside\n`;
    await fs.writeFile(file, outside);
    await expect.poll(() => editor.getByRole('group', { name: 'Changed on disk' }).textContent()).toContain('servers/Chat room.yaml changed on disk while you were editing it.');
    expect(await error.count()).toBe(0);
    await editor.getByRole('button', { name: "Take the file's version" }).click();
    await expect.poll(() => editor.getByLabel('Server name').inputValue()).toBe('Chat room');
    await expect.poll(() => yaml.textContent()).toContain('greeting: hello from outside');
    expect(await error.count()).toBe(0);
    await expect.poll(() => editor.getByRole('button', { name: "Take the file's version" }).count()).toBe(0);
    expect(await fs.readFile(file, 'utf8')).toBe(outside);

    // Keep mine, with a slip typed meanwhile: refused for the slip, nothing written; once fixed,
    // Save writes over the version the user chose to overwrite, without the conflict again.
    await yaml.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('mode: rules\nrules:\n  - match: sometimes\n    pattern: ping\n');
    await fs.writeFile(file, outside.replace('hello from outside', 'changed again'));
    await editor.getByRole('group', { name: 'Changed on disk' }).waitFor({ timeout: 10_000 });
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => error.textContent()).toContain('websocket.rules[0].match');
    await yaml.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('mode: rules\nrules:\n  - match: exact\n    pattern: ping\n    reply: pong {{who}}\n');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => error.textContent()).toBe(refused);
    await yaml.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.insertText('  - match: exactly\n');
    await editor.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    await expect.poll(() => error.textContent()).toContain('websocket.rules[1].match');
    expect(await fs.readFile(file, 'utf8')).toContain('changed again');
    await yaml.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('mode: rules\nrules:\n  - match: exact\n    pattern: ping\n    reply: pong {{who}}\n');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => editor.getByRole('status').textContent()).toBe('Saved servers/Chat room.yaml.');
    expect(await fs.readFile(file, 'utf8')).toBe(saved);
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);
  });

  it('the editor edits the Markdown notes (docs, 2.11): saved in place as the last field, cleared notes leave the file', async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    const file = path.join(ws.root, 'servers/names.yaml');
    const before = await fs.readFile(file, 'utf8');
    await panel.getByRole('button', { name: 'Edit Names' }).click();
    const editor = page.getByRole('dialog', { name: 'Server editor' });
    const docs = editor.getByRole('textbox', { name: 'Docs' });
    expect(await docs.inputValue()).toBe('');
    await docs.fill('# Names\nAnswers api.test for the demo.');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => editor.getByRole('status').textContent()).toBe('Saved servers/names.yaml.');
    expect(await fs.readFile(file, 'utf8')).toBe(`${before}docs: |-\n  # Names\n  Answers api.test for the demo.\n`);
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);
    // Opened again, the notes are read back; cleared, the field leaves the file.
    await panel.getByRole('button', { name: 'Edit Names' }).click();
    await expect.poll(() => docs.inputValue()).toBe('# Names\nAnswers api.test for the demo.');
    await docs.fill('');
    await editor.getByRole('button', { name: 'Save' }).click();
    // The page's answer, not only the file: the file is written before the answer reaches the
    // page, and Esc pressed in between met an editor still holding edits, whose "Discard your
    // changes?" Playwright dismisses, so the editor stayed open (and blocked the next tests).
    await expect.poll(() => editor.getByRole('status').textContent()).toBe('Saved servers/names.yaml.');
    await expect.poll(async () => fs.readFile(file, 'utf8')).toBe(before);
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);
  });

  it("DNS: a query in the traffic table, the row opened to the decoded question and answer", async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    await panel.getByRole('button', { name: 'Start Names' }).click();
    // A busy machine (the whole suite at once) once took longer than the locator's 8 s here; if the
    // start itself failed, the panel's text says why.
    await page.getByTestId('server-url-names').waitFor({ timeout: 30_000 }).catch(async (error: Error) => {
      throw new Error(`Names did not show its URL (${error.message.split('\n')[0]}); the panel says: ${await panel.textContent()}`);
    });
    const url = (await page.getByTestId('server-url-names').textContent())!;
    expect(await queryA(Number(new URL(url.replace(/^dns:/, 'http:')).port), 'api.test')).toBe('127.0.0.9');
    const traffic = panel.getByRole('table', { name: 'Traffic' });
    await panel.getByLabel('Traffic of').selectOption('names');
    const row = traffic.getByRole('row', { name: /A api\.test → NOERROR, 1 answer \(udp\)/ });
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    const detail = traffic.locator('.traffic-detail');
    await expect.poll(() => detail.textContent()).toContain('api.test 60 IN A 127.0.0.9');
    expect(await detail.textContent()).toMatch(/rcodeNOERROR/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-servers-dns.png') });
  }, 60_000); // the 30 s wait for the start above, with room left to say why it failed

  it('past the 500 rows the table keeps, a new client still shows in the list and the send picker', async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    const names = Number(new URL((await page.getByTestId('server-url-names').textContent())!.replace(/^dns:/, 'http:')).port);
    const udp = dgram.createSocket('udp4');
    let answers = 0;
    udp.on('message', () => answers++);
    // 50 queries at a time: a burst of hundreds of datagrams overflows a socket's buffer.
    for (let id = 0; id < 600; id++) {
      udp.send(dnsPacket.encode({ type: 'query', id, questions: [{ type: 'A', name: 'api.test' }] }), names, '127.0.0.1');
      if (id % 50 === 49) await expect.poll(() => answers).toBe(id + 1);
    }
    udp.close();
    await panel.getByLabel('Traffic of').selectOption('');
    const traffic = panel.getByRole('table', { name: 'Traffic' });
    await expect.poll(() => traffic.getByRole('row').count()).toBe(501); // the head and 500 rows

    const url = (await page.getByTestId('server-url-Chat room').textContent())!;
    const client = new WebSocket(url.replace(/^http/, 'ws'));
    await new Promise<void>((resolve, reject) => {
      client.once('open', () => resolve());
      client.once('error', reject);
    });
    const peer = `127.0.0.1:${(client as unknown as { _socket: { localPort: number } })._socket.localPort}`;
    await expect.poll(() => page.getByTestId('server-connections-Chat room').textContent()).toBe('1 open');
    await expect.poll(() => panel.getByRole('group', { name: 'Send to clients' }).getByLabel('Send to').textContent()).toContain(peer);
    client.close();
  });

  it('a server file added or deleted on disk (git, an editor) while the panel is open shows up in its list', async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    await panel.getByRole('button', { name: 'Edit Names' }).waitFor();
    await ws.write('servers/pulled.yaml', { name: 'Pulled', kind: 'udp' });
    await expect.poll(() => panel.getByRole('button', { name: 'Start Pulled' }).count()).toBe(1);
    await fs.rm(path.join(ws.root, 'servers/pulled.yaml'));
    await expect.poll(() => panel.getByRole('button', { name: 'Start Pulled' }).count()).toBe(0);
  });

  it("Start's answer is not undone by an older read of the list answered after it (the server shown stopped while it ran)", async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    await ws.write('servers/race.yaml', { name: 'Race', kind: 'udp' });
    await expect.poll(() => panel.getByRole('button', { name: 'Start Race' }).count()).toBe(1);
    // A file changed on disk makes the panel read the list again: that read reaches the server
    // (Race not running, Other listed) and its answer is held from the page.
    const held = await holdRequest(page, /\/api\/servers$/, 'GET', { reachServer: true });
    await ws.write('servers/other.yaml', { name: 'Other', kind: 'udp' });
    await held.sent;
    try {
      await panel.getByRole('button', { name: 'Start Race' }).click();
      await expect.poll(() => page.getByTestId('server-url-race').textContent()).toMatch(/^udp:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      held.release();
    }
    await held.answered;
    // The held answer has reached the page; what it would draw is drawn by the next frames.
    await drawn(page);
    expect(await page.getByTestId('server-url-race').count()).toBe(1);
    await panel.getByRole('button', { name: 'Stop Race' }).click();
    await expect.poll(() => panel.getByRole('button', { name: 'Start Race' }).count()).toBe(1);
    await fs.rm(path.join(ws.root, 'servers/race.yaml'));
    await fs.rm(path.join(ws.root, 'servers/other.yaml'));
    await expect.poll(() => panel.getByRole('button', { name: /^Start (Race|Other)$/ }).count()).toBe(0);
  });

  it("the clients to send to: an older read answering last does not offer a client gone since, nor hide one come since", async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    // Opened by the first test; run alone (-t), by this one.
    if ((await panel.count()) === 0) await page.getByRole('button', { name: 'Servers', exact: true }).click();
    await ws.write('servers/order.yaml', '# clients read out of order\nname: Order\nkind: websocket\nwebsocket:\n  mode: manual\n');
    await panel.getByRole('button', { name: 'Start Order' }).click();
    await page.getByTestId('server-url-order').waitFor({ timeout: 30_000 });
    const url = (await page.getByTestId('server-url-order').textContent())!.replace(/^http/, 'ws');
    const connect = async () => {
      const client = new WebSocket(url);
      await new Promise<void>((resolve, reject) => {
        client.once('open', () => resolve());
        client.once('error', reject);
      });
      return { client, peer: `127.0.0.1:${(client as unknown as { _socket: { localPort: number } })._socket.localPort}` };
    };
    const send = panel.getByRole('group', { name: 'Send to clients' });
    await send.getByLabel('Send from server').selectOption('order');
    const to = () => send.getByLabel('Send to').textContent();
    const first = await connect();
    await expect.poll(to).toContain(first.peer);
    // The next client's traffic makes the panel ask for the clients: that read reaches the server
    // (both clients connected) and its answer is held from the page.
    const held = await holdRequest(page, /\/api\/servers\/clients\?id=order$/, 'GET', { reachServer: true });
    const gone = await connect();
    const later = { client: undefined as WebSocket | undefined, peer: '' };
    try {
      await held.sent;
      gone.client.close();
      Object.assign(later, await connect());
      await expect.poll(to).toContain(later.peer);
      await expect.poll(to).not.toContain(gone.peer);
    } finally {
      held.release();
    }
    await held.answered;
    await drawn(page);
    expect(await to()).toContain(later.peer);
    expect(await to()).not.toContain(gone.peer);
    first.client.close();
    later.client?.close();
    await panel.getByRole('button', { name: 'Stop Order' }).click();
    await expect.poll(() => panel.getByRole('button', { name: 'Start Order' }).count()).toBe(1);
    await fs.rm(path.join(ws.root, 'servers/order.yaml'));
    await expect.poll(() => panel.getByRole('button', { name: 'Start Order' }).count()).toBe(0);
  });

  it('Start that failed (its port in use) is tried again when the file is saved: the panel shows the server running', async () => {
    const holder = net.createServer();
    // Freed below, then bound by the server: from below the ephemeral range, so no other test's
    // connection or listen(0) can take it in between (freePort); listen(0)'s port could be.
    const portBelowEphemeral = await freePort();
    await new Promise<void>((resolve) => holder.listen(portBelowEphemeral, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const panel = page.getByLabel('Servers', { exact: true });
      await ws.write('servers/taken.yaml', { name: 'Taken', kind: 'tcp', port, socket: { greeting: 'hi' } });
      await panel.getByRole('button', { name: 'Start Taken' }).click();
      await expect.poll(() => panel.textContent()).toContain(`port ${port} on 127.0.0.1 is already in use by another program`);
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      await ws.write('servers/taken.yaml', { name: 'Taken', kind: 'tcp', port, socket: { greeting: 'fixed' } });
      await expect.poll(() => page.getByTestId('server-url-taken').textContent(), { timeout: 10_000 }).toBe(`tcp://127.0.0.1:${port}`);
      await panel.getByRole('button', { name: 'Stop Taken' }).click();
      await expect.poll(() => panel.getByRole('button', { name: 'Start Taken' }).count()).toBe(1);
    } finally {
      holder.close();
    }
  });

  it('the editor offers TLS for the kinds that speak it (2.11), with the certificate and key files; the server then starts with them', async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    const editor = page.getByRole('dialog', { name: 'Server editor' });
    // DNS has no TLS: no switch for it.
    await panel.getByRole('button', { name: 'Edit Names' }).click();
    await expect.poll(() => editor.getByLabel('Server port').count()).toBe(1);
    expect(await editor.getByLabel('TLS', { exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);

    const made = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec' });
    await ws.write('certs/cert.pem', made.cert);
    await ws.write('certs/key.pem', made.private);
    await ws.write('servers/secure.yaml', { name: 'Secure', kind: 'sse', sse: { events: [{ data: 'hi' }] } });
    await panel.getByRole('button', { name: 'Edit Secure' }).click();
    const tls = editor.getByLabel('TLS', { exact: true });
    await expect.poll(() => tls.count()).toBe(1);
    expect(await tls.isChecked()).toBe(false);
    expect(await editor.getByLabel('TLS certificate file').count()).toBe(0);
    await tls.check();
    await editor.getByLabel('TLS certificate file').fill('certs/cert.pem');
    await editor.getByLabel('TLS key file').fill('certs/key.pem');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => editor.getByRole('status').textContent()).toBe('Saved servers/secure.yaml.');
    expect(await fs.readFile(path.join(ws.root, 'servers/secure.yaml'), 'utf8')).toBe(
      'name: Secure\nkind: sse\ntls:\n  enabled: true\n  certPath: certs/cert.pem\n  keyPath: certs/key.pem\nsse:\n  events:\n    - data: hi\n',
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);
    await panel.getByRole('button', { name: 'Start Secure' }).click();
    await expect.poll(() => page.getByTestId('server-url-secure').textContent(), { timeout: 10_000 }).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    // While one runs, the panel says when servers read variables (8.2).
    expect(await page.getByTestId('servers-variables-note').textContent()).toBe('Running servers fill {{variables}} as they were when each started or its file was last saved: after switching the environment or changing a variable, stop and start it.');
    await panel.getByRole('button', { name: 'Stop Secure' }).click();
    await expect.poll(() => panel.getByRole('button', { name: 'Start Secure' }).count()).toBe(1);
  });
});

describe.skipIf(missing !== undefined)('ferry app in Chromium: the autoStart rule', () => {
  let ws: TempWorkspace;
  let browser: Browser;

  beforeAll(async () => {
    await ensureBuiltUi();
    ws = await makeWorkspace({ 'servers/auto.yaml': { name: 'Auto', kind: 'udp', autoStart: true } });
    process.env.FERRY_DATA_DIR = ws.dataDir;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ws?.cleanup();
  });

  it('a new configuration is not started by itself: the app says so and starts it on request; the next start of the app starts it', async () => {
    let app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: WEB_ROOT });
    try {
      const page = await openPage(browser, app);
      const notice = page.getByRole('region', { name: 'Servers not started' });
      await expect.poll(() => notice.textContent()).toContain('Auto (udp) was not started by itself: autoStart is on, but this computer has not started or saved this configuration before');
      await page.screenshot({ path: path.join(ARTIFACTS, 'app-autostart-notice.png') });
      await notice.getByRole('button', { name: 'Start Auto now' }).click();
      await expect.poll(() => notice.count()).toBe(0);
      await page.getByRole('button', { name: 'Servers', exact: true }).click();
      await expect.poll(() => page.getByTestId('server-url-auto').textContent()).toMatch(/^udp:\/\/127\.0\.0\.1:\d+$/);
      await page.context().close();
    } finally {
      await app.close();
    }

    app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: WEB_ROOT });
    try {
      const page = await openPage(browser, app);
      await page.getByRole('button', { name: 'Servers', exact: true }).click();
      // Known now: running as soon as the app is up, and no notice.
      await expect.poll(() => page.getByTestId('server-url-auto').textContent()).toMatch(/^udp:\/\/127\.0\.0\.1:\d+$/);
      expect(await page.getByRole('region', { name: 'Servers not started' }).count()).toBe(0);
      await page.context().close();
    } finally {
      await app.close();
    }
  });
});
