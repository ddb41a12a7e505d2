/**
 * MQTT requests (spec 2.6, 2.8; the `mqtt` package): connect with the request's options and its
 * basic auth, subscribe to the enabled subscriptions, then publish `body.text` to `topic` when
 * both are set; received publishes are read by the shared stop rule (`stream.event` = a topic).
 */
import { isUtf8 } from 'node:buffer';
import type net from 'node:net';
import mqtt, { type IClientOptions, type IConnackPacket, type IPublishPacket, type ISubscriptionGrant, type MqttClient } from 'mqtt';
import type { PreparedRequest } from '../../request/prepared.js';
import type { ProtocolResult, SendContext } from '../kind.js';
import { connectTimeout, followConnect } from '../connect-stage.js';
import { describeSocketError, errorCode } from '../connection-errors.js';
import { SendError } from '../send-error.js';
import { DEFAULT_STREAM, type MessageStream } from '../stream/messages.js';
import { openLive, stringParam } from '../live/connection.js';
import { outgoingBytes } from '../live/outgoing.js';
import type { ConnectHandlers, LiveConnection } from '../live/types.js';
import { StreamSession } from '../stream/session.js';
import { PacketGuard } from './packet-guard.js';
import { connackRefusal } from './refusals.js';
import { publishRefusal } from './broker-limits.js';
import { maxResponseBytes } from '../response-limit.js';

/** The `mqtt` option section as prepared (defaults and variables filled). */
interface MqttOptions {
  clientId: string;
  version: 'v311' | 'v5';
  cleanSession: boolean;
  keepAliveSecs: number;
  subscriptions: Array<{ topic: string; qos: number; enabled: boolean }>;
  topic: string;
  qos: number;
  retain: boolean;
}

/** How long DISCONNECT (after in-flight messages finish) may take before the socket is cut. */
const END_GRACE_MS = 1000;
/** MQTT 5, cleanSession false: how long the broker keeps the session after this client disconnects. */
const SESSION_EXPIRY_SECS = 3600;
/** mqtt.js never waits forever for CONNACK; with no time limit of ours, its limit is this. */
const NO_LIMIT_MS = 2 ** 31 - 1;

/** The request's URL and `mqtt` options, refused before connecting when they cannot work. */
function mqttTarget(prepared: PreparedRequest): { url: URL; options: MqttOptions } {
  const url = new URL(prepared.url);
  if (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') throw new SendError(`an MQTT request needs an mqtt:// or mqtts:// URL, not ${url.protocol}//.`, 'unsupported');
  if (url.search !== '' && url.search !== '?') {
    // MQTT over TCP has no query: params, or an API key in the query, would be dropped without a word.
    throw new SendError(`an MQTT connection has no query string, so the URL's query (${[...new Set(url.searchParams.keys())].join(', ')}) cannot be sent; use the request's basic auth (the broker's user name and password).`, 'invalid');
  }
  const options = prepared.options as unknown as MqttOptions;
  const where = prepared.path ? `requests/${prepared.path}: ` : '';
  if (!options.cleanSession && options.clientId === '') {
    throw new SendError(`${where}mqtt.cleanSession false needs an mqtt.clientId: the broker keeps the session under that id, and a random one is never seen again.`, 'other');
  }
  // A broker drops a client that subscribes with a malformed filter or publishes to a wildcard
  // (checked by `sendMqtt`), which would read as a request that passed with the server closing.
  options.subscriptions.forEach((s, i) => {
    const problem = s.enabled && s.topic !== '' ? topicProblem(s.topic, true) : undefined;
    if (problem) throw new SendError(`${where}mqtt.subscriptions[${i}].topic "${s.topic}" ${problem}.`, 'invalid');
  });
  return { url, options };
}

/** Why `topic` cannot be published to (`filter` false) or subscribed with (MQTT 3.1.1 4.7.1), or undefined. */
function topicProblem(topic: string, filter: boolean): string | undefined {
  if (!filter) return /[#+]/.test(topic) ? 'has a wildcard (+ or #); publish to a topic without wildcards (they are for subscriptions)' : undefined;
  const levels = topic.split('/');
  for (const [i, level] of levels.entries()) {
    if (level.includes('#') && (level !== '#' || i !== levels.length - 1)) return 'is not a topic filter: # must be a whole level and the last one (home/#)';
    if (level.includes('+') && level !== '+') return 'is not a topic filter: + must be a whole level (home/+/temperature)';
  }
  return undefined;
}

interface OpenedMqtt {
  client: MqttClient;
  /** What the broker has sent, as far as packet headers tell. */
  guard: PacketGuard;
  connack?: IConnackPacket;
  disconnect?: { reasonCode?: number };
  /** A SUBSCRIBE, or a PUBLISH at QoS 1 or 2, sent and not yet acknowledged, in words: a close then is a refusal, not the end of reading. */
  awaiting?: string;
}

/**
 * Connects with the request's options and basic auth and wires the client to the session:
 * refusals, received publishes, the close. The one connection code of `send` and `connect`;
 * `onConnect` runs once the broker accepted the connection.
 */
async function openMqtt(prepared: PreparedRequest, context: SendContext, session: StreamSession, url: URL, options: MqttOptions, onConnect: (client: MqttClient, opened: OpenedMqtt) => void): Promise<OpenedMqtt> {
  const timeoutMs = prepared.settings?.timeoutMs ?? 0;
  const clientOptions: IClientOptions = {
    protocolVersion: options.version === 'v5' ? 5 : 4,
    clean: options.cleanSession,
    keepalive: options.keepAliveSecs,
    reconnectPeriod: 0, // one connection per send: a refusal or a drop ends it
    connectTimeout: timeoutMs > 0 ? timeoutMs + 1000 : NO_LIMIT_MS,
    rejectUnauthorized: prepared.settings?.verifyTls ?? true,
    // mqtts:// trusts caFiles and sends the host's client certificate, as https:// does (mqtt.js
    // hands every TLS option to tls.connect; its types leave out pfx and passphrase).
    ...(context.agents.targetTls(url) as IClientOptions),
    // MQTT 5 ends a session at disconnect unless asked to keep it: cleanSession false keeps it for an hour.
    ...(options.version === 'v5' && !options.cleanSession ? { properties: { sessionExpiryInterval: SESSION_EXPIRY_SECS } } : {}),
    ...(options.clientId ? { clientId: options.clientId } : {}),
    ...(prepared.basic?.username ? { username: prepared.basic.username } : {}),
    ...(prepared.basic?.password ? { password: prepared.basic.password } : {}),
  };
  let client: MqttClient;
  try {
    client = mqtt.connect(url.href, clientOptions);
  } catch (error) {
    session.fail(describeMqttError(error as Error, url, false));
    await session.finish();
    throw error; // not reached: finish throws the failure
  }
  // Each packet the broker sends is at most maxResponseMb, checked at its header (packet-guard.ts);
  // ahead of mqtt.js's own listener, so a packet is judged before its parser buffers it.
  const guard = new PacketGuard(maxResponseBytes(context.maxResponseMb), () => {
    session.fail(new SendError(`the MQTT broker at ${url.host} sent an MQTT message larger than ${context.maxResponseMb} MB (maxResponseMb), so Ferry closed the connection; raise the limit with ferry config set maxResponseMb N.`, 'tooLarge'));
    client.stream?.destroy();
  }, (type) => {
    session.fail(invalidPacket(new Error(`its first packet is of type ${type}, not a CONNACK`), url, false, options.version));
    client.stream?.destroy();
  });
  client.stream?.prependListener('data', (chunk: Buffer) => guard.push(chunk));
  // A plaintext broker (or any peer) given mqtts:// waits in silence for the rest of the handshake: the time limit says so.
  if (client.stream) {
    const stage = followConnect(client.stream as net.Socket, url.protocol === 'mqtts:');
    session.explainTimeout = (error) =>
      connectTimeout(error, stage(), `the MQTT broker at ${url.host}`, 'it may be a plaintext broker: use mqtt:// (port 1883), or check the port.', `accepted the connection but had not answered MQTT's CONNECT (no CONNACK) by then. Is it an MQTT broker${url.protocol === 'mqtt:' ? ' (a TLS one needs mqtts://)' : ''}, and does it take mqtt.version ${options.version}?`);
  }
  const opened: OpenedMqtt = { client, guard };
  client.on('connect', (packet) => {
    opened.connack = packet;
    onConnect(client, opened);
  });
  client.on('message', (topic, payload, packet) => {
    const properties = publishProperties(packet.properties);
    session.messages?.received({ ...payloadText(payload), topic, qos: packet.qos, retain: packet.retain, ...(properties ? { properties } : {}) });
  });
  client.on('disconnect', (packet) => {
    opened.disconnect = { reasonCode: packet.reasonCode };
  });
  // Brokers such as AWS IoT drop a client that subscribes or publishes to a topic it may not use, with no SUBACK or PUBACK.
  // A 3.1.1 broker also drops a publish past limits it never said (mosquitto's max_qos, max_packet_size).
  const unacknowledged = () =>
    new SendError(`the MQTT broker at ${url.host} closed the connection before acknowledging ${opened.awaiting}; ${opened.awaiting?.startsWith('the message') && options.version === 'v311' ? "it may not allow this client that topic, or take a message of this size or QoS (MQTT 3.1.1 brokers do not say their limits): check the topic, the broker's access rules and its limits" : "it may not allow this client that topic: check the topic and the broker's access rules"}.`, 'refused');
  client.on('error', (error) => {
    const code = (error as { code?: unknown }).code;
    if (!session.messages && typeof code === 'number') return session.fail(connackRefusal(code, options.version, url.host));
    if (session.messages && opened.awaiting && errorCode(error) === 'ECONNRESET') return session.fail(unacknowledged());
    if (session.messages && errorCode(error) === 'ECONNRESET') return session.messages.closed();
    // A plaintext broker drops a TLS handshake without a word: say what it probably is.
    if (!session.messages && url.protocol === 'mqtts:' && (errorCode(error) === 'ECONNRESET' || errorCode(error) === 'EPIPE')) {
      return session.fail(new SendError(`the MQTT broker at ${url.host} closed the connection during the TLS handshake (${errorCode(error)}); it may be a plaintext broker: use mqtt:// (port 1883), or check the port.`, 'tls'));
    }
    if (error.message === 'Keepalive timeout') return session.fail(keepaliveTimeout(url, client.keepalive));
    // The parser's (or mqtt.js's) refusal of what the broker sent: named by when it came, not as a failed connect.
    if (isProtocolError(error)) return session.fail(invalidPacket(error, url, opened.guard.accepted, options.version));
    session.fail(describeMqttError(error, url, session.messages !== undefined));
  });
  client.on('close', () => {
    if (session.messages && opened.awaiting) session.fail(unacknowledged());
    else if (session.messages) session.messages.closed();
    else session.fail(new SendError(`the MQTT broker at ${url.host} closed the connection before accepting it (no CONNACK). Is it an MQTT broker${url.protocol === 'mqtt:' ? ' (a TLS one needs mqtts://)' : ''}, and does it take mqtt.version ${options.version}?`, 'reset'));
  });
  session.onClose(() => endClient(client, session.messages?.stopped ?? false));
  return opened;
}

export async function sendMqtt(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const { url, options } = mqttTarget(prepared);
  const problem = publishedPayload(prepared, options) ? topicProblem(options.topic, false) : undefined;
  if (problem) throw new SendError(`${prepared.path ? `requests/${prepared.path}: ` : ''}mqtt.topic "${options.topic}" ${problem}.`, 'invalid');
  const session = new StreamSession(prepared, signal, (message) => message.topic);
  let steps: Promise<void> | undefined;
  const opened = await openMqtt(prepared, context, session, url, options, (client, connected) => {
    const messages = session.open();
    steps = subscribeThenPublish(client, connected, options, prepared, messages, url.host).catch((error: Error) => session.fail(describeMqttError(error, url, true)));
  });
  const messages = await session.finish();
  // The polite end keeps the connection while acknowledgements are due (endClient): one may still come.
  if (messages.stoppedBy === 'timeout' && opened.awaiting) await Promise.race([steps, new Promise((resolve) => setTimeout(resolve, END_GRACE_MS).unref())]);
  if (messages.stoppedBy === 'timeout' && opened.awaiting) {
    // Unacknowledged when time ran out: a broker ignoring a topic it refuses would read as a quiet topic.
    const limit = prepared.stream?.timeoutMs ?? DEFAULT_STREAM.timeoutMs;
    throw new SendError(`the MQTT broker at ${url.host} did not acknowledge ${opened.awaiting} before reading stopped (stream.timeoutMs, ${limit} ms); it may not allow this client that topic: check the topic and the broker's access rules.`, 'timeout');
  }
  const v5 = options.version === 'v5';
  return session.result({
    outcome: { status: 0, text: v5 ? 'Success' : 'Connection Accepted', ok: true },
    url: prepared.url,
    detail: {
      clientId: opened.client.options.clientId,
      sessionPresent: opened.connack?.sessionPresent ?? false,
      ...(opened.disconnect && messages.stoppedBy === 'closed' ? { disconnectReasonCode: opened.disconnect.reasonCode ?? 0 } : {}),
    },
  });
}

/**
 * A live MQTT connection: the request's enabled subscriptions are subscribed once connected;
 * `send` publishes to the message's topic; `subscribe` and `unsubscribe` change them live (each
 * recorded as a sent message named so, with its topic and QoS).
 */
export async function connectMqtt(prepared: PreparedRequest, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const { url, options } = mqttTarget(prepared);
  const session = new StreamSession(prepared, signal, undefined, handlers.onMessage);
  const opened = await openMqtt(prepared, context, session, url, options, () => session.open());
  const subscribe = async (topic: string, qos: number, messages: MessageStream) => {
    const granted = await opened.client.subscribeAsync({ [topic]: { qos: qos as 0 | 1 | 2 } }).catch((error: Error) => Promise.reject(describeMqttError(error, url, true)));
    const refused = granted.find((g: ISubscriptionGrant) => g.qos >= 0x80);
    if (refused) throw subscriptionRefused(refused);
    messages.sent({ event: 'subscribe', text: '', topic, qos: granted[0]?.qos ?? qos });
    return { topic, qos: granted[0]?.qos ?? qos };
  };
  const connection = await openLive(session, {
    noun: `the MQTT connection to ${url.host}`,
    info: () => ({ url: prepared.url, headers: [], detail: { clientId: opened.client.options.clientId, sessionPresent: opened.connack?.sessionPresent ?? false } }),
    send: async (message, messages) => {
      const topic = message.topic?.trim() ?? '';
      if (topic === '') throw new SendError('an MQTT message needs a topic to publish to; type one in Topic.', 'invalid');
      const problem = topicProblem(topic, false);
      if (problem) throw new SendError(`the topic "${topic}" ${problem}.`, 'invalid');
      const payload = outgoingBytes(message).bytes;
      const qos = (message.qos ?? 0) as 0 | 1 | 2;
      const refusal = publishRefusal(opened.connack, { topic, payload, qos, retain: message.retain === true }, url.host, options.version);
      if (refusal) throw refusal;
      messages.sent({ ...payloadText(payload), topic, qos, retain: message.retain === true });
      await opened.client.publishAsync(topic, payload, { qos, retain: message.retain === true }).catch((error: Error) => Promise.reject(describeMqttError(publishRefused(error, topic, qos, url.host), url, true)));
    },
    operations: {
      subscribe: async (params, messages) => {
        const qos = params.qos === undefined ? 0 : params.qos;
        if (qos !== 0 && qos !== 1 && qos !== 2) throw new SendError(`subscribe's QoS must be 0, 1 or 2, not ${JSON.stringify(qos)}.`, 'invalid');
        const topic = stringParam(params, 'topic', 'subscribe');
        const problem = topicProblem(topic, true);
        if (problem) throw new SendError(`the topic "${topic}" ${problem}.`, 'invalid');
        return subscribe(topic, qos, messages);
      },
      unsubscribe: async (params, messages) => {
        const topic = stringParam(params, 'topic', 'unsubscribe');
        await opened.client.unsubscribeAsync(topic).catch((error: Error) => Promise.reject(describeMqttError(error, url, true)));
        messages.sent({ event: 'unsubscribe', text: '', topic });
        return { topic };
      },
    },
    peerEnd: () => `the MQTT broker at ${url.host} closed the connection${opened.disconnect?.reasonCode ? ` (reason code 0x${opened.disconnect.reasonCode.toString(16)})` : ''}`,
  });
  try {
    for (const s of options.subscriptions.filter((s) => s.enabled && s.topic !== '')) await connection.call('subscribe', { topic: s.topic, qos: s.qos });
  } catch (error) {
    await connection.close();
    throw error;
  }
  return connection;
}

/**
 * An MQTT 5 publish's properties as the message model keeps them (JSON): correlation data as
 * base64; the topic alias is left out (it only stands in for the topic, which is given).
 */
function publishProperties(properties: IPublishPacket['properties']): Record<string, unknown> | undefined {
  if (!properties) return undefined;
  const { topicAlias: _alias, correlationData, ...rest } = properties;
  const kept: Record<string, unknown> = { ...rest, ...(correlationData ? { correlationData: Buffer.from(correlationData).toString('base64') } : {}) };
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** A payload as the message model keeps it: UTF-8 text, or base64 marked binary. */
function payloadText(payload: Buffer): { text: string; binary?: true } {
  return isUtf8(payload) ? { text: payload.toString('utf8') } : { text: payload.toString('base64'), binary: true as const };
}

function subscriptionRefused(refused: ISubscriptionGrant): SendError {
  return new SendError(`the MQTT broker refused the subscription to ${refused.topic} (SUBACK code 0x${refused.qos.toString(16)}); check the topic filter and the broker's access rules.`, 'refused');
}

/** Subscribes first (so a message the request publishes to its own subscription is read), then publishes. */
async function subscribeThenPublish(client: MqttClient, opened: OpenedMqtt, options: MqttOptions, prepared: PreparedRequest, messages: MessageStream, host: string): Promise<void> {
  const subscriptions = options.subscriptions.filter((s) => s.enabled && s.topic !== '');
  if (subscriptions.length > 0) {
    opened.awaiting = `the subscription to ${subscriptions.map((s) => s.topic).join(', ')} (no SUBACK)`;
    const granted = await client.subscribeAsync(Object.fromEntries(subscriptions.map((s) => [s.topic, { qos: s.qos as 0 | 1 | 2 }])));
    opened.awaiting = undefined;
    const refused = granted.find((g: ISubscriptionGrant) => g.qos >= 0x80);
    if (refused) throw subscriptionRefused(refused);
  }
  const payload = publishedPayload(prepared, options);
  if (!payload || messages.stopped) return;
  const refusal = publishRefusal(opened.connack, { topic: options.topic, payload, qos: options.qos, retain: options.retain }, host, options.version);
  if (refusal) throw refusal;
  messages.sent({ ...payloadText(payload), topic: options.topic, qos: options.qos, retain: options.retain });
  // QoS 0 has no acknowledgement to wait for.
  if (options.qos > 0) opened.awaiting = `the message published to ${options.topic} at QoS ${options.qos} (no ${options.qos === 1 ? 'PUBACK' : 'PUBREC'})`;
  await client.publishAsync(options.topic, payload, { qos: options.qos as 0 | 1 | 2, retain: options.retain }).catch((error: Error) => Promise.reject(publishRefused(error, options.topic, options.qos, host)));
  opened.awaiting = undefined;
}

/**
 * An MQTT 5 broker's refusal of a QoS 1 or 2 publish (a PUBACK or PUBREC reason code from 0x80,
 * mosquitto's 0x87 for a topic its ACL does not let the client write), said with the topic and
 * what to check; mqtt.js said only "Publish error: Not authorized".
 */
function publishRefused(error: Error, topic: string, qos: number, host: string): Error {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'number' || code < 0x80) return error;
  const reason = error.message.replace(/^Publish error: /, '');
  const packet = qos === 1 ? 'PUBACK' : 'PUBREC';
  return new SendError(`the MQTT broker at ${host} refused the message published to ${topic} at QoS ${qos}: ${reason.charAt(0).toLowerCase()}${reason.slice(1)} (${packet} reason code 0x${code.toString(16)}); check the topic and the broker's access rules.`, 'refused');
}

/**
 * What the request publishes to `topic`: its body; with `retain` an empty body too, the empty
 * retained message that clears the topic's retained one (as `mosquitto_pub -r -n`). Undefined
 * when it publishes nothing (no topic, or an empty body without retain).
 */
function publishedPayload(prepared: PreparedRequest, options: MqttOptions): Buffer | undefined {
  const bytes = prepared.body.kind === 'bytes' ? prepared.body.bytes : new Uint8Array();
  return options.topic !== '' && (bytes.length > 0 || options.retain) ? Buffer.from(bytes) : undefined;
}

/** mqtt.js's own errors that are not about what the broker sent. */
const CLIENT_ERRORS = /^(connack timeout|Keepalive timeout|client disconnecting|Connection closed|No connection to broker)$/i;

/** An error of the packet parser or of mqtt.js reading a packet: no socket error code, no MQTT reason code, not one of the client's own. */
function isProtocolError(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return code === undefined && errorCode(error) === '' && !CLIENT_ERRORS.test(error.message);
}

/** mqtt.js gave up on the connection: no PINGRESP within 1.5 keep-alive intervals (`keepAliveSecs`, or the MQTT 5 broker's Server Keep Alive). */
function keepaliveTimeout(url: URL, keepAliveSecs: number): SendError {
  return new SendError(`the MQTT broker at ${url.host} stopped answering: no PINGRESP to Ferry's keep-alive ping within ${keepAliveSecs * 1.5} s (1.5 × the keep-alive of ${keepAliveSecs} s), so Ferry closed the connection; check that the broker is up and reachable, or raise mqtt.keepAliveSecs.`, 'timeout');
}

/** What the broker sent could not be read: after its CONNACK, an invalid packet; before, an answer that is not MQTT. */
function invalidPacket(error: Error, url: URL, accepted: boolean, version: string): SendError {
  if (accepted) {
    return new SendError(`the MQTT broker at ${url.host} sent an invalid packet after accepting the connection (${error.message}), so Ferry closed the connection; check that the URL's port is the MQTT broker's and that it speaks mqtt.version ${version}.`, 'protocol');
  }
  return new SendError(`the MQTT broker at ${url.host} answered the connection with something that is not MQTT (${error.message}). Is it an MQTT broker${url.protocol === 'mqtt:' ? ' (a TLS one needs mqtts://)' : ''}, and does it take mqtt.version ${version}?`, 'protocol');
}

function describeMqttError(error: Error, url: URL, connected: boolean): SendError {
  if (error instanceof SendError) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number') return new SendError(`the MQTT broker at ${url.host} answered with an error: ${error.message} (reason code 0x${code.toString(16)}).`, 'protocol');
  if (/connack timeout/i.test(error.message)) return new SendError(`the MQTT broker at ${url.host} did not accept the connection in time (no CONNACK).`, 'timeout');
  return describeSocketError(error, url, connected ? 'talking MQTT with' : 'connecting to the MQTT broker at');
}

/** Ends politely (DISCONNECT once in-flight messages finish) after a read, at once on failure or cancel. */
function endClient(client: MqttClient, polite: boolean): void {
  if (!polite || !client.connected) {
    client.end(true);
    return;
  }
  // A second `end` is a no-op while the polite one waits for acknowledgements, and a broker that
  // never sends them would keep the socket (and `ferry run`) alive: the cut destroys it.
  const cut = setTimeout(() => client.stream?.destroy(), END_GRACE_MS);
  cut.unref();
  client.end(false, {}, () => clearTimeout(cut));
}
