/**
 * MQTT requests against two real brokers on 127.0.0.1: aedes in-process (MQTT 3.1.1, plain and
 * TLS) and Debian's mosquitto started by the test (3.1.1 and 5). QoS 0/1/2, retained messages,
 * username/password, clean session, CONNACK refusals, every stop reason.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import mqttClient from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestSchema } from '../../src/model/index.js';
import { requestKind, SendError } from '../../src/protocols/index.js';
import { PrepareError, prepareRequest } from '../../src/request/index.js';
import { HttpAgents } from '../../src/protocols/http/http.js';
import { workspaceSchema } from '../../src/model/index.js';
import { buildVariableScope } from '../../src/template/index.js';
import { describeKindCases, sendInheriting, sendWith } from './kind-cases.js';
import { CONNACK, mosquittoMissing, PASSWORD, startAedes, startMosquitto, startScriptedBroker, USER, type Broker } from './mqtt-brokers.js';
import { binaryBodyFile, failure, received, sendRequest } from './streaming-send.js';
import { tempDir } from '../support/temp.js';

describeKindCases({
  module: requestKind('mqtt'),
  urlFor: (port, secure) => `${secure ? 'mqtts' : 'mqtt'}://127.0.0.1:${port}`,
  wrongScheme: 'ws://127.0.0.1:1/',
  startTls: () => startAedes({ secure: true, closeOnConnect: true }),
  waitsForHandshake: true,
});

let unique = 0;
const topic = (name: string) => `ferry/${name}/${process.pid}-${++unique}`;

/** The cases both brokers pass, for one protocol version. */
function brokerCases(label: string, start: () => Promise<Broker>, version: 'v311' | 'v5') {
  describe(`${label} (${version})`, () => {
    let broker: Broker;
    beforeAll(async () => {
      broker = await start();
    });
    afterAll(() => broker?.close());
    const mqtt = (options: Record<string, unknown>) => ({ version, ...options });

    for (const qos of [0, 1, 2]) {
      it(`subscribes, then publishes to its own subscription at QoS ${qos}, stopping at the topic`, async () => {
        const name = topic(`qos${qos}`);
        const result = await sendRequest('mqtt', {
          url: broker.url,
          mqtt: mqtt({ subscriptions: [{ topic: name, qos }, { topic: 'ferry/never', enabled: false }], topic: name, qos }),
          body: { type: 'text', text: `hello at ${qos}` },
          settings: { stream: { event: name } },
        });
        expect(result.outcome).toEqual({ status: 0, text: version === 'v5' ? 'Success' : 'Connection Accepted', ok: true });
        expect(result.stream).toEqual({ events: 1, stoppedBy: 'event' });
        expect(result.messages![0]).toMatchObject({ direction: 'sent', topic: name, qos, retain: false, text: `hello at ${qos}` });
        expect(received(result)[0]).toMatchObject({ topic: name, qos, retain: false, text: `hello at ${qos}` });
        expect(Buffer.from(result.body).toString()).toBe(`hello at ${qos}`);
      });
    }

    it('stream.event takes variables as the topic does: a run stops at {{topic}} (it was matched as written, so reading ran to the time limit)', async () => {
      const name = `${topic('vars')}/Zoë ☃`;
      const request = requestSchema.parse({
        name: 'vars',
        kind: 'mqtt',
        url: broker.url,
        mqtt: mqtt({ subscriptions: [{ topic: '{{t}}', qos: 1 }], topic: '{{t}}', qos: 1 }),
        body: { type: 'text', text: 'hi' },
        settings: { timeoutMs: 5000, stream: { event: '{{t}}', timeoutMs: 4000 } },
      });
      const variables = buildVariableScope({ overrides: new Map([['t', name]]) });
      const prepared = await prepareRequest({ request, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) }, variables }, { kind: requestKind('mqtt') });
      const agents = new HttpAgents();
      const result = await requestKind('mqtt').send!(prepared, { agents, maxResponseMb: 50, workspaceRoot: process.cwd(), allowFilesOutside: false }).finally(() => agents.close());
      expect(result.stream).toEqual({ events: 1, stoppedBy: 'event' });
      expect(received(result)[0]).toMatchObject({ topic: name, text: 'hi' });
    });

    it('a retained message reaches a later subscriber, marked retain', async () => {
      const name = topic('retained');
      const published = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ topic: name, qos: 1, retain: true }), body: { type: 'text', text: 'kept' }, settings: { stream: { timeoutMs: 1 } } });
      expect(published.messages![0]).toMatchObject({ direction: 'sent', retain: true });
      const later = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ subscriptions: [{ topic: name, qos: 1 }] }), settings: { stream: { maxEvents: 1 } } });
      expect(later.stream).toEqual({ events: 1, stoppedBy: 'maxEvents' });
      expect(received(later)[0]).toMatchObject({ topic: name, retain: true, text: 'kept' });
    });

    it('an empty retained publish clears the retained message (as mosquitto_pub -r -n does): a later subscriber gets nothing', async () => {
      const name = topic('cleared');
      await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ topic: name, qos: 1, retain: true }), body: { type: 'text', text: 'kept' }, settings: { stream: { timeoutMs: 1 } } });
      const cleared = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ topic: name, qos: 1, retain: true }), settings: { stream: { timeoutMs: 1 } } });
      expect(cleared.messages![0]).toMatchObject({ direction: 'sent', topic: name, retain: true, text: '' });
      const later = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ subscriptions: [{ topic: name, qos: 1 }] }), settings: { stream: { maxEvents: 1, timeoutMs: 300 } } });
      expect(later.stream).toEqual({ events: 0, stoppedBy: 'timeout' });
    });

    if (version === 'v5') {
      it("MQTT 5: a received message keeps its publish properties (user properties, content type, correlation data)", async () => {
        const name = topic('props');
        const publisher = await mqttClient.connectAsync(broker.url, { protocolVersion: 5 });
        try {
          const properties = { userProperties: { source: 'sensor-7', tags: ['a', 'b'] }, contentType: 'application/json', responseTopic: `${name}/reply`, correlationData: Buffer.from([1, 2, 3]), payloadFormatIndicator: true };
          await publisher.publishAsync(name, '{"c":21}', { qos: 1, retain: true, properties });
        } finally {
          await publisher.endAsync();
        }
        const result = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ subscriptions: [{ topic: name, qos: 1 }] }), settings: { stream: { maxEvents: 1, timeoutMs: 5000 } } });
        expect(received(result)[0]).toMatchObject({
          topic: name,
          text: '{"c":21}',
          properties: { userProperties: { source: 'sensor-7', tags: ['a', 'b'] }, contentType: 'application/json', responseTopic: `${name}/reply`, correlationData: 'AQID', payloadFormatIndicator: true },
        });
      });
    }

    it('username and password from basic auth; a wrong password is a named CONNACK refusal', async () => {
      const ok = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({}), auth: { type: 'basic', username: USER, password: PASSWORD }, settings: { stream: { timeoutMs: 1 } } });
      expect(ok.stream!.stoppedBy).toBe('timeout');
      const refused = await failure(sendRequest('mqtt', { url: broker.url, mqtt: mqtt({}), auth: { type: 'basic', username: USER, password: 'nope' } }));
      expect(refused).toBeInstanceOf(SendError);
      expect((refused as SendError).kind).toBe('refused');
      expect(refused.message).toMatch(version === 'v5' ? /(bad user name or password \(CONNACK reason code 0x86\)|not authorized \(CONNACK reason code 0x87\))/ : /(bad user name or password \(CONNACK return code 4\)|not authorized \(CONNACK return code 5\))/);
      expect(refused.message).toContain(`127.0.0.1:${broker.port}`);
      expect(refused.message).not.toContain('\n');
    });

    it('publishing to a wildcard topic or subscribing with a malformed filter is refused with one line naming the field (the broker would drop the client)', async () => {
      const name = topic('wild');
      const publish = await failure(sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ topic: `${name}/+/t` }), body: { type: 'text', text: 'hi' } }));
      expect(publish.message).toBe(`mqtt.topic "${name}/+/t" has a wildcard (+ or #); publish to a topic without wildcards (they are for subscriptions).`);
      const filter = await failure(sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ subscriptions: [{ topic: 'ok/#' }, { topic: `${name}/#/x` }] }) }));
      expect(filter.message).toBe(`mqtt.subscriptions[1].topic "${name}/#/x" is not a topic filter: # must be a whole level and the last one (home/#).`);
      const plus = await failure(sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ subscriptions: [{ topic: `${name}/a+` }] }) }));
      expect(plus.message).toMatch(/subscriptions\[0\]\.topic .* \+ must be a whole level/);
      // A wildcard topic with nothing to publish, and a disabled bad filter, are left alone.
      const idle = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ topic: `${name}/#`, subscriptions: [{ topic: '#/x', enabled: false }] }), settings: { stream: { timeoutMs: 1 } } });
      expect(idle.stream?.stoppedBy).toBe('timeout');
    });

    it('a binary body (a file) is published as its bytes and a binary payload read as base64; maxEvents and the time limit stop reading', async () => {
      const name = topic('binary');
      const body = await binaryBodyFile(Uint8Array.from([0xde, 0xad, 0x00, 0xef]));
      // A real client beside Ferry sees the bytes as published.
      const watcher = mqttClient.connect(broker.url, { username: USER, password: PASSWORD, protocolVersion: version === 'v5' ? 5 : 4 });
      const seen: Buffer[] = [];
      try {
        await new Promise<void>((resolve, reject) => {
          watcher.once('error', reject);
          watcher.on('connect', () => watcher.subscribe(`${name}/#`, (error) => (error ? reject(error) : resolve())));
        });
        watcher.on('message', (_topic, payload) => seen.push(payload));
        const result = await sendRequest('mqtt', {
          url: broker.url,
          mqtt: mqtt({ subscriptions: [{ topic: `${name}/#`, qos: 0 }], topic: `${name}/x` }),
          body: { type: 'binary', file: body.file },
          settings: { stream: { maxEvents: 1 } },
        });
        expect(result.stream).toEqual({ events: 1, stoppedBy: 'maxEvents' });
        expect(result.messages![0]).toMatchObject({ direction: 'sent', text: '3q0A7w==', binary: true });
        expect(received(result)[0]).toMatchObject({ topic: `${name}/x`, text: '3q0A7w==', binary: true });
        for (let waited = 0; seen.length === 0 && waited < 3000; waited += 20) await new Promise((r) => setTimeout(r, 20));
        expect(seen.map((p) => p.toString('hex'))).toEqual(['dead00ef']);
      } finally {
        watcher.end(true);
        await body.remove();
      }
      const quiet = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ subscriptions: [{ topic: `${name}/none` }] }), settings: { stream: { timeoutMs: 150 } } });
      expect(quiet.stream).toEqual({ events: 0, stoppedBy: 'timeout' });
    });

    it('clean session off keeps the subscription while away: a QoS 1 message sent meanwhile arrives on reconnect', async () => {
      const name = topic('session');
      const clientId = `ferry-${process.pid}-${unique}`;
      const away = mqtt({ clientId, cleanSession: false, subscriptions: [{ topic: name, qos: 1 }] });
      // Long enough for the SUBACK and the PUBACK on a loaded machine (1 ms once lost the message in a full run).
      await sendRequest('mqtt', { url: broker.url, mqtt: away, settings: { stream: { timeoutMs: 300 } } });
      await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ topic: name, qos: 1 }), body: { type: 'text', text: 'while away' }, settings: { stream: { timeoutMs: 300 } } });
      const back = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ clientId, cleanSession: false }), settings: { stream: { maxEvents: 1, timeoutMs: 3000 } } });
      expect(back.detail).toMatchObject({ sessionPresent: true, clientId });
      expect(received(back)[0]).toMatchObject({ topic: name, text: 'while away' });
      // With a clean session, nothing was kept.
      const clean = await sendRequest('mqtt', { url: broker.url, mqtt: mqtt({ clientId, cleanSession: true }), settings: { stream: { timeoutMs: 100 } } });
      expect(clean.detail).toMatchObject({ sessionPresent: false });
    });
  });
}

brokerCases('aedes', () => startAedes(), 'v311');
const missing = mosquittoMissing();
describe.skipIf(Boolean(missing))(`mosquitto${missing ? ` (skipped: ${missing})` : ''}`, () => {
  brokerCases('mosquitto', startMosquitto, 'v311');
  brokerCases('mosquitto', startMosquitto, 'v5');

  describe("a broker's limits (max_qos 1, max_packet_size 200, retain_available false)", () => {
    let limited: Broker;
    beforeAll(async () => {
      limited = await startMosquitto(['max_qos 1', 'max_packet_size 200', 'retain_available false']);
    });
    afterAll(() => limited?.close());
    const publish = (version: string, fields: Record<string, unknown>, text = 'x') =>
      sendRequest('mqtt', { url: limited.url, mqtt: { version, topic: 'ferry/limits', ...fields }, body: { type: 'text', text }, settings: { stream: { maxEvents: 1, timeoutMs: 3000 } } });

    it("MQTT 5: a publish past what the CONNACK says (Maximum QoS, Retain Available, Maximum Packet Size) is refused before sending, naming the limit (mosquitto dropped the connection: it read as a topic not allowed)", async () => {
      const host = `127.0.0.1:${limited.port}`;
      expect((await failure(publish('v5', { qos: 2 }))).message).toBe(`the MQTT broker at ${host} takes messages at QoS 1 at most (its CONNACK's Maximum QoS), so Ferry did not publish to ferry/limits at QoS 2: the broker would drop the connection. Set mqtt.qos to 1 or 0.`);
      expect((await failure(publish('v5', { retain: true }))).message).toBe(`the MQTT broker at ${host} keeps no retained messages (its CONNACK's Retain Available is 0), so Ferry did not publish to ferry/limits with retain: the broker would drop the connection. Turn off mqtt.retain.`);
      // The packet: 1 byte of type, 2 of length, 2 + 12 of topic, 2 of packet id, 1 of properties, then the payload.
      const fits = 'y'.repeat(200 - 1 - 2 - 14 - 2 - 1);
      expect(mqttPacket.generate({ cmd: 'publish', topic: 'ferry/limits', payload: fits, qos: 1, messageId: 1, retain: false, dup: false, properties: {} }, { protocolVersion: 5 }).length).toBe(200);
      const whole = await publish('v5', { qos: 1, subscriptions: [{ topic: 'ferry/limits', qos: 1 }] }, fits);
      expect(received(whole).map((m) => m.text)).toEqual([fits]);
      expect((await failure(publish('v5', { qos: 1 }, `${fits}y`))).message).toBe(`the message to ferry/limits is 201 bytes as an MQTT packet, more than the 200 bytes the MQTT broker at ${host} takes (its CONNACK's Maximum Packet Size), so Ferry did not publish it: the broker would drop the connection. Send a smaller body, or raise the broker's limit.`);
    });

    it("MQTT 5: a publish the broker's ACL refuses (PUBACK 0x87) names the topic and what to check (it said only \"Publish error: Not authorized\")", async () => {
      const dir = await tempDir('ferry-mosquitto-acl-');
      const acl = path.join(dir, 'acl');
      await fs.writeFile(acl, 'topic read ferry/ro/#\ntopic readwrite ferry/rw/#\n');
      const guarded = await startMosquitto([`acl_file ${acl}`]);
      try {
        const error = await failure(sendRequest('mqtt', { url: guarded.url, mqtt: { version: 'v5', topic: 'ferry/ro/x', qos: 1 }, body: { type: 'text', text: 'no' }, settings: { stream: { timeoutMs: 3000 } } }));
        expect(error.message).toBe(`the MQTT broker at 127.0.0.1:${guarded.port} refused the message published to ferry/ro/x at QoS 1: not authorized (PUBACK reason code 0x87); check the topic and the broker's access rules.`);
        const allowed = await sendRequest('mqtt', { url: guarded.url, mqtt: { version: 'v5', topic: 'ferry/rw/x', qos: 1 }, body: { type: 'text', text: 'yes' }, settings: { stream: { timeoutMs: 300 } } });
        expect(allowed.outcome.ok).toBe(true);
      } finally {
        await guarded.close();
      }
    });

    it("MQTT 3.1.1: the broker says no limits; its drop of a publish past them names them as a possible cause", async () => {
      const error = await failure(publish('v311', { qos: 2 }));
      expect(error.message).toBe(`the MQTT broker at 127.0.0.1:${limited.port} closed the connection before acknowledging the message published to ferry/limits at QoS 2 (no PUBREC); it may not allow this client that topic, or take a message of this size or QoS (MQTT 3.1.1 brokers do not say their limits): check the topic, the broker's access rules and its limits.`);
    });
  });
});

describe('mqtt: brokers that refuse or close', () => {
  let aedes: Broker;
  beforeAll(async () => {
    aedes = await startAedes();
  });
  afterAll(() => aedes.close());

  it('a broker that drops the client ends reading as closed', async () => {
    const result = await sendRequest('mqtt', { url: aedes.url, mqtt: { subscriptions: [{ topic: 'ferry/kick' }] }, settings: { stream: { timeoutMs: 5000 } } });
    expect(result.stream).toEqual({ events: 0, stoppedBy: 'closed' });
  });

  it('a broker that drops the client before acknowledging its subscription (as AWS IoT does for a topic not allowed) fails the request, naming the topic', async () => {
    const error = await failure(sendRequest('mqtt', { url: aedes.url, mqtt: { subscriptions: [{ topic: 'ferry/denied', qos: 1 }], topic: 'ferry/denied' }, body: { type: 'text', text: 'x' }, settings: { stream: { timeoutMs: 5000 } } }));
    expect(error).toBeInstanceOf(SendError);
    expect(error.message).toBe(`the MQTT broker at 127.0.0.1:${aedes.port} closed the connection before acknowledging the subscription to ferry/denied (no SUBACK); it may not allow this client that topic: check the topic and the broker's access rules.`);
  });

  it('a broker that drops the client before acknowledging a QoS 1 publish fails the request, naming the topic; at QoS 0 there is nothing to wait for', async () => {
    const error = await failure(sendRequest('mqtt', { url: aedes.url, mqtt: { topic: 'ferry/denied', qos: 1 }, body: { type: 'text', text: 'x' }, settings: { stream: { timeoutMs: 5000 } } }));
    expect(error.message).toBe(`the MQTT broker at 127.0.0.1:${aedes.port} closed the connection before acknowledging the message published to ferry/denied at QoS 1 (no PUBACK); it may not allow this client that topic, or take a message of this size or QoS (MQTT 3.1.1 brokers do not say their limits): check the topic, the broker's access rules and its limits.`);
    const fireAndForget = await sendRequest('mqtt', { url: aedes.url, mqtt: { topic: 'ferry/denied', qos: 0 }, body: { type: 'text', text: 'x' }, settings: { stream: { timeoutMs: 5000 } } });
    expect(fireAndForget.stream?.stoppedBy).toBe('closed');
  });

  it('the connection is closed after a send whose SUBSCRIBE or QoS 1 PUBLISH the broker never acknowledged (the polite end waited for them forever: ferry run printed its report and never exited)', async () => {
    const broker = await startScriptedBroker((socket, packet) => {
      if (packet.cmd === 'connect') socket.write(CONNACK);
    });
    try {
      await sendRequest('mqtt', { url: broker.url, mqtt: { subscriptions: [{ topic: 'a/#' }] }, settings: { stream: { timeoutMs: 300 } } }).catch(() => undefined);
      await sendRequest('mqtt', { url: broker.url, mqtt: { topic: 'a/b', qos: 1 }, body: { type: 'text', text: 'x' }, settings: { stream: { timeoutMs: 300 } } }).catch(() => undefined);
      await expect.poll(() => broker.closed(), { timeout: 3000 }).toBe(2);
    } finally {
      await broker.close();
    }
  });

  it('a broker that never acknowledges the subscription or a QoS 1 publish fails the request when reading stops by time, naming what is unacknowledged (it passed as a quiet topic)', async () => {
    const broker = await startScriptedBroker((socket, packet) => {
      if (packet.cmd === 'connect') socket.write(CONNACK);
    });
    try {
      const subscribe = await failure(sendRequest('mqtt', { url: broker.url, mqtt: { subscriptions: [{ topic: 'a/#' }] }, settings: { stream: { timeoutMs: 300 } } }));
      expect(subscribe.message).toBe(`the MQTT broker at 127.0.0.1:${broker.port} did not acknowledge the subscription to a/# (no SUBACK) before reading stopped (stream.timeoutMs, 300 ms); it may not allow this client that topic: check the topic and the broker's access rules.`);
      const publish = await failure(sendRequest('mqtt', { url: broker.url, mqtt: { topic: 'a/b', qos: 1 }, body: { type: 'text', text: 'x' }, settings: { stream: { timeoutMs: 300 } } }));
      expect(publish.message).toContain('did not acknowledge the message published to a/b at QoS 1 (no PUBACK) before reading stopped (stream.timeoutMs, 300 ms)');
    } finally {
      await broker.close();
    }
  });

  it('garbage after a valid CONNACK is named as an invalid packet from the broker after connecting (it read as "connecting failed")', async () => {
    const broker = await startScriptedBroker((socket, packet) => {
      // Packet type 0 is reserved: no broker sends it.
      if (packet.cmd === 'connect') socket.write(Buffer.concat([CONNACK, Buffer.from([0x00, 0x02, 0xde, 0xad])]));
    });
    try {
      const error = await failure(sendRequest('mqtt', { url: broker.url, settings: { stream: { timeoutMs: 3000 } } }));
      expect(error.message).toBe(`the MQTT broker at 127.0.0.1:${broker.port} sent an invalid packet after accepting the connection (Not supported), so Ferry closed the connection; check that the URL's port is the MQTT broker's and that it speaks mqtt.version v311.`);
      expect((error as SendError).kind).toBe('protocol');
    } finally {
      await broker.close();
    }
    // Before any CONNACK: a web server on the port answers with something that is not MQTT.
    const net = await import('node:net');
    const web = net.createServer((socket) => socket.once('data', () => socket.write('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n')));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const { port } = web.address() as import('node:net').AddressInfo;
    try {
      const error = await failure(sendRequest('mqtt', { url: `mqtt://127.0.0.1:${port}` }));
      expect(error.message).toMatch(new RegExp(`^the MQTT broker at 127\\.0\\.0\\.1:${port} answered the connection with something that is not MQTT \\(.+\\)\\. Is it an MQTT broker \\(a TLS one needs mqtts://\\), and does it take mqtt\\.version v311\\?$`));
    } finally {
      web.close();
    }
    // Bytes whose "length" says hundreds of MB, before any CONNACK: not MQTT, said at once (not waited on, nor called too large).
    const noise = net.createServer((socket) => socket.once('data', () => socket.write(Buffer.from([0x00, 0xff, 0xfe, 0xff, 0x7f, 0x20]))));
    await new Promise<void>((resolve) => noise.listen(0, '127.0.0.1', resolve));
    const noisePort = (noise.address() as import('node:net').AddressInfo).port;
    try {
      const error = await failure(sendRequest('mqtt', { url: `mqtt://127.0.0.1:${noisePort}`, settings: { timeoutMs: 5000 } }));
      expect(error.message).toBe(`the MQTT broker at 127.0.0.1:${noisePort} answered the connection with something that is not MQTT (its first packet is of type 0, not a CONNACK). Is it an MQTT broker (a TLS one needs mqtts://), and does it take mqtt.version v311?`);
    } finally {
      noise.close();
    }
  });

  it('a received message past maxResponseMb fails the request as other kinds do, cut at its header (it was read whole: up to 256 MB each)', async () => {
    let written = 0;
    const broker = await startScriptedBroker((socket, packet) => {
      if (packet.cmd !== 'connect') return;
      socket.write(CONNACK);
      // A PUBLISH saying it holds 200 MB, then bytes for as long as the client reads them.
      const length = 200 * 1024 * 1024; // MQTT's variable-length integer: 7 bits a byte, low first
      const header = Buffer.from([0x30, (length & 0x7f) | 0x80, ((length >> 7) & 0x7f) | 0x80, ((length >> 14) & 0x7f) | 0x80, length >> 21, 0x00, 0x03, 0x62, 0x69, 0x67]);
      socket.write(header);
      const chunk = Buffer.alloc(64 * 1024, 0x78);
      const more = () => {
        while (!socket.destroyed && socket.write(chunk)) written += chunk.length;
      };
      socket.on('drain', more);
      more();
    });
    try {
      const request = requestSchema.parse({ name: 'big', kind: 'mqtt', url: broker.url, settings: { timeoutMs: 5000, stream: { timeoutMs: 0 } } });
      const error = await failure(sendWith(requestKind('mqtt'), request, undefined, { maxResponseMb: 1 }));
      expect(error.message).toBe(`the MQTT broker at 127.0.0.1:${broker.port} sent an MQTT message larger than 1 MB (maxResponseMb), so Ferry closed the connection; raise the limit with ferry config set maxResponseMb N.`);
      expect((error as SendError).kind).toBe('tooLarge');
      expect(written).toBeLessThan(8 * 1024 * 1024);
      // A message of exactly the bound is read.
      const exact = await startScriptedBroker((socket, packet) => {
        if (packet.cmd !== 'connect') return;
        socket.write(CONNACK);
        const body = mqttPacket.generate({ cmd: 'publish', topic: 'big', payload: Buffer.alloc(1024 * 1024 - 9, 0x61), qos: 0, dup: false, retain: false });
        expect(body.length).toBe(1024 * 1024);
        socket.write(body);
      });
      try {
        const read = await sendWith(requestKind('mqtt'), requestSchema.parse({ name: 'exact', kind: 'mqtt', url: exact.url, settings: { timeoutMs: 5000, stream: { maxEvents: 1 } } }), undefined, { maxResponseMb: 1 });
        expect(read.stream).toEqual({ events: 1, stoppedBy: 'maxEvents' });
      } finally {
        await exact.close();
      }
    } finally {
      await broker.close();
    }
  });

  it('with the mqtt section left out, CONNECT says the spec defaults: MQTT 3.1.1, clean session, keep-alive 30 s, a new random client id per connection (2.8)', async () => {
    const connects: mqttPacket.IConnectPacket[] = [];
    const broker = await startScriptedBroker((socket, packet) => {
      if (packet.cmd === 'connect') {
        connects.push(packet);
        socket.write(CONNACK);
      }
    });
    try {
      for (let i = 0; i < 2; i++) await sendRequest('mqtt', { url: broker.url, settings: { stream: { timeoutMs: 50 } } });
      expect(connects.map((c) => [c.protocolId, c.protocolVersion, c.clean, c.keepalive])).toEqual([['MQTT', 4, true, 30], ['MQTT', 4, true, 30]]);
      expect(connects[0]!.clientId).not.toBe('');
      expect(connects[1]!.clientId).not.toBe(connects[0]!.clientId);
    } finally {
      await broker.close();
    }
  });

  it('a broker that accepts and then stops answering (no PINGRESP) fails naming the keep-alive (it read "talking MQTT with … failed: Keepalive timeout")', async () => {
    const broker = await startScriptedBroker((socket, packet) => {
      if (packet.cmd === 'connect') socket.write(CONNACK);
    });
    try {
      const error = await failure(sendRequest('mqtt', { url: broker.url, mqtt: { keepAliveSecs: 1 }, settings: { stream: { timeoutMs: 10000 } } }));
      expect(error.message).toBe(`the MQTT broker at 127.0.0.1:${broker.port} stopped answering: no PINGRESP to Ferry's keep-alive ping within 1.5 s (1.5 × the keep-alive of 1 s), so Ferry closed the connection; check that the broker is up and reachable, or raise mqtt.keepAliveSecs.`);
    } finally {
      await broker.close();
    }
  });

  it('a peer that closes before CONNACK fails with one line saying so', async () => {
    const net = await import('node:net');
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    try {
      const error = await failure(sendRequest('mqtt', { url: `mqtt://127.0.0.1:${port}` }));
      expect(error).toBeInstanceOf(SendError);
      expect(error.message).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}.*(before accepting it \\(no CONNACK\\)|ECONNRESET)`));
    } finally {
      server.close();
    }
  });

  it('a peer that accepts TCP and never answers: over mqtts:// the time limit says the TLS handshake did not finish, over mqtt:// that no CONNACK came (both read "no complete response by then")', async () => {
    const net = await import('node:net');
    const silent = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as import('node:net').AddressInfo;
    try {
      const handshake = await failure(sendRequest('mqtt', { url: `mqtts://127.0.0.1:${port}`, settings: { timeoutMs: 500 } }));
      expect((handshake as SendError).kind).toBe('timeout');
      expect(handshake.message).toBe(`timed out after 500 ms (settings.timeoutMs); the MQTT broker at 127.0.0.1:${port} accepted the connection but had not finished the TLS handshake by then; it may be a plaintext broker: use mqtt:// (port 1883), or check the port.`);
      const connack = await failure(sendRequest('mqtt', { url: `mqtt://127.0.0.1:${port}`, settings: { timeoutMs: 500 } }));
      expect(connack.message).toBe(`timed out after 500 ms (settings.timeoutMs); the MQTT broker at 127.0.0.1:${port} accepted the connection but had not answered MQTT's CONNECT (no CONNACK) by then. Is it an MQTT broker (a TLS one needs mqtts://), and does it take mqtt.version v311?`);
    } finally {
      silent.close();
    }
  });

  it('mqtts:// to a plaintext broker and mqtt:// to a TLS one say which scheme to use', async () => {
    const secure = await startAedes({ secure: true });
    try {
      const plainToTls = await failure(sendRequest('mqtt', { url: secure.url.replace('mqtts:', 'mqtt:') }));
      expect(plainToTls.message).toContain('(a TLS one needs mqtts://)');
    } finally {
      await secure.close();
    }
    const plain = missing ? aedes : await startMosquitto();
    try {
      const tlsToPlain = await failure(sendRequest('mqtt', { url: plain.url.replace('mqtt:', 'mqtts:') }));
      expect(tlsToPlain.message).toMatch(new RegExp(`^the MQTT broker at 127\\.0\\.0\\.1:${plain.port} closed the connection during the TLS handshake \\((ECONNRESET|EPIPE)\\); it may be a plaintext broker: use mqtt:// \\(port 1883\\), or check the port\\.$`));
    } finally {
      if (plain !== aedes) await plain.close();
    }
  });

  it('MQTT 5 to a 3.1.1-only broker (aedes) fails with one line', async () => {
    const error = await failure(sendRequest('mqtt', { url: aedes.url, mqtt: { version: 'v5' } }));
    expect(error).toBeInstanceOf(SendError);
    expect(error.message).toMatch(/unacceptable protocol version \(CONNACK return code 1\)\. The broker does not speak MQTT 5; try mqtt\.version v311\./);
    expect(error.message).toContain(`127.0.0.1:${aedes.port}`);
    expect(error.message).not.toContain('\n');
  });

  it('a query in the URL (query params) cannot go over MQTT: refused before connecting, naming it', async () => {
    const keyed = await failure(sendRequest('mqtt', { url: `${aedes.url}?token=s3cret` }));
    expect(keyed.message).toBe("an MQTT connection has no query string, so the URL's query (token) cannot be sent; use the request's basic auth (the broker's user name and password).");
    expect(keyed.message).not.toContain('s3cret');
  });

  it('an auth other than Basic set on the request itself is refused before connecting, saying MQTT sends Basic only (it was silently left out)', async () => {
    for (const [auth, name] of [
      [{ type: 'bearer', token: 't0ken' }, 'Bearer'],
      [{ type: 'apiKey', key: 'token', value: 's3cret', location: 'query' }, 'API key'],
      [{ type: 'oauth2', grantType: 'clientCredentials', tokenUrl: 'http://127.0.0.1:9/token', clientId: 'c', clientSecret: 's' }, 'OAuth 2.0'],
    ] as const) {
      const error = await failure(sendRequest('mqtt', { url: aedes.url, auth }));
      expect(error, name).toBeInstanceOf(PrepareError);
      expect(error.message, name).toBe(`request "stream": ${name} auth is not sent by MQTT requests, which send Basic auth only (the broker's user name and password, in CONNECT). Set this request's auth to basic, or to none (or inherit).`);
    }
  });

  it("an auth other than Basic inherited from the workspace or a folder is left out: the request connects (no query, no token fetched)", async () => {
    const request = requestSchema.parse({ name: 'inherits', kind: 'mqtt', url: aedes.url, settings: { timeoutMs: 5000, stream: { timeoutMs: 1 } } });
    for (const [workspaceAuth, folderAuth] of [
      [{ type: 'apiKey', key: 'token', value: 's3cret', location: 'query' }, undefined],
      [{ type: 'bearer', token: 't' }, { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: 'http://127.0.0.1:9/token', clientId: 'c', clientSecret: 's' }],
    ] as const) {
      const result = await sendInheriting(requestKind('mqtt'), request, workspaceAuth, folderAuth);
      expect(result.stream?.stoppedBy, JSON.stringify(workspaceAuth)).toBe('timeout');
      expect(result.url).toBe(aedes.url);
    }
  });

  it('clean session off without a client id is refused before connecting, with one line', async () => {
    const error = await failure(sendRequest('mqtt', { url: aedes.url, mqtt: { clientId: '', cleanSession: false } }));
    expect(error).toBeInstanceOf(SendError);
    expect(error.message).toMatch(/mqtt\.cleanSession false needs an mqtt\.clientId/);
  });
});
