/**
 * MQTT requests (spec 2.6, 2.8; the `mqtt` package): connect with the request's options and its
 * basic auth, subscribe to the enabled subscriptions, then publish `body.text` to `topic` when
 * both are set; received publishes are read by the shared stop rule (`stream.event` = a topic).
 */
import { isUtf8 } from 'node:buffer';
import mqtt, { type IClientOptions, type IConnackPacket, type ISubscriptionGrant, type MqttClient } from 'mqtt';
import type { PreparedRequest } from '../../request/prepared.js';
import type { ProtocolResult, SendContext } from '../kind.js';
import { describeSocketError, errorCode } from '../connection-errors.js';
import { SendError } from '../send-error.js';
import type { MessageStream } from '../stream/messages.js';
import { StreamSession } from '../stream/session.js';
import { connackRefusal } from './refusals.js';

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

export async function sendMqtt(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const url = new URL(prepared.url);
  if (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') throw new SendError(`an MQTT request needs an mqtt:// or mqtts:// URL, not ${url.protocol}//.`, 'unsupported');
  const options = prepared.options as unknown as MqttOptions;
  if (!options.cleanSession && options.clientId === '') {
    throw new SendError(`${prepared.path ? `requests/${prepared.path}: ` : ''}mqtt.cleanSession false needs an mqtt.clientId: the broker keeps the session under that id, and a random one is never seen again.`, 'other');
  }
  const session = new StreamSession(prepared, signal, (message) => message.topic);
  const timeoutMs = prepared.settings?.timeoutMs ?? 0;
  const clientOptions: IClientOptions = {
    protocolVersion: options.version === 'v5' ? 5 : 4,
    clean: options.cleanSession,
    keepalive: options.keepAliveSecs,
    reconnectPeriod: 0, // one connection per send: a refusal or a drop ends it
    connectTimeout: timeoutMs > 0 ? timeoutMs + 1000 : NO_LIMIT_MS,
    rejectUnauthorized: prepared.settings?.verifyTls ?? true,
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
  let connack: IConnackPacket | undefined;
  let disconnect: { reasonCode?: number } | undefined;

  client.on('connect', (packet) => {
    connack = packet;
    const messages = session.open();
    void subscribeThenPublish(client, options, prepared, messages).catch((error: Error) => session.fail(describeMqttError(error, url, true)));
  });
  client.on('message', (topic, payload, packet) => {
    const text = isUtf8(payload) ? { text: payload.toString('utf8') } : { text: payload.toString('base64'), binary: true as const };
    session.messages?.received({ ...text, topic, qos: packet.qos, retain: packet.retain });
  });
  client.on('disconnect', (packet) => {
    disconnect = { reasonCode: packet.reasonCode };
  });
  client.on('error', (error) => {
    const code = (error as { code?: unknown }).code;
    if (!session.messages && typeof code === 'number') return session.fail(connackRefusal(code, options.version, url.host));
    if (session.messages && errorCode(error) === 'ECONNRESET') return session.messages.closed();
    session.fail(describeMqttError(error, url, session.messages !== undefined));
  });
  client.on('close', () => {
    if (session.messages) session.messages.closed();
    else session.fail(new SendError(`the MQTT broker at ${url.host} closed the connection before accepting it (no CONNACK). Is it an MQTT broker, and does it take mqtt.version ${options.version}?`, 'reset'));
  });
  session.onClose(() => endClient(client, session.messages?.stopped ?? false));

  const messages = await session.finish();
  const v5 = options.version === 'v5';
  return session.result({
    outcome: { status: 0, text: v5 ? 'Success' : 'Connection Accepted', ok: true },
    url: prepared.url,
    detail: {
      clientId: client.options.clientId,
      sessionPresent: connack?.sessionPresent ?? false,
      ...(disconnect && messages.stoppedBy === 'closed' ? { disconnectReasonCode: disconnect.reasonCode ?? 0 } : {}),
    },
  });
}

/** Subscribes first (so a message the request publishes to its own subscription is read), then publishes. */
async function subscribeThenPublish(client: MqttClient, options: MqttOptions, prepared: PreparedRequest, messages: MessageStream): Promise<void> {
  const subscriptions = options.subscriptions.filter((s) => s.enabled && s.topic !== '');
  if (subscriptions.length > 0) {
    const granted = await client.subscribeAsync(Object.fromEntries(subscriptions.map((s) => [s.topic, { qos: s.qos as 0 | 1 | 2 }])));
    const refused = granted.find((g: ISubscriptionGrant) => g.qos >= 0x80);
    if (refused) throw new SendError(`the MQTT broker refused the subscription to ${refused.topic} (SUBACK code 0x${refused.qos.toString(16)}); check the topic filter and the broker's access rules.`, 'refused');
  }
  const bytes = prepared.body.kind === 'bytes' ? prepared.body.bytes : undefined;
  if (!options.topic || !bytes || bytes.length === 0 || messages.stopped) return;
  const payload = Buffer.from(bytes);
  const text = isUtf8(payload) ? { text: payload.toString('utf8') } : { text: payload.toString('base64'), binary: true as const };
  messages.sent({ ...text, topic: options.topic, qos: options.qos, retain: options.retain });
  await client.publishAsync(options.topic, payload, { qos: options.qos as 0 | 1 | 2, retain: options.retain });
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
  const cut = setTimeout(() => client.end(true), END_GRACE_MS);
  cut.unref();
  client.end(false, {}, () => clearTimeout(cut));
}
