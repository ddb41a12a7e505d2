/**
 * What an MQTT 5 broker said in its CONNACK it takes (MQTT 5 3.2.2.3: Maximum QoS, Retain
 * Available, Maximum Packet Size), checked before a publish: a client MUST NOT send past them, and
 * a broker sent one anyway drops the connection (mosquitto with max_qos or max_packet_size), which
 * read as a topic it did not allow. MQTT 3.1.1 brokers say none of this: nothing is checked.
 */
import type { IConnackPacket } from 'mqtt';
import { SendError } from '../send-error.js';

export interface Publish {
  topic: string;
  payload: Uint8Array;
  qos: number;
  retain: boolean;
}

/** Why the broker would not take `publish`, in words with what to change; undefined when it takes it. */
export function publishRefusal(connack: IConnackPacket | undefined, publish: Publish, host: string, version: 'v311' | 'v5'): SendError | undefined {
  const said = connack?.properties;
  if (version !== 'v5' || !said) return undefined;
  const broker = `the MQTT broker at ${host}`;
  const dropped = 'the broker would drop the connection';
  if (said.maximumQoS !== undefined && publish.qos > said.maximumQoS) {
    const lower = said.maximumQoS === 0 ? '0' : `${said.maximumQoS} or 0`;
    return new SendError(`${broker} takes messages at QoS ${said.maximumQoS} at most (its CONNACK's Maximum QoS), so Ferry did not publish to ${publish.topic} at QoS ${publish.qos}: ${dropped}. Set mqtt.qos to ${lower}.`, 'refused');
  }
  if (said.retainAvailable === false && publish.retain) {
    return new SendError(`${broker} keeps no retained messages (its CONNACK's Retain Available is 0), so Ferry did not publish to ${publish.topic} with retain: ${dropped}. Turn off mqtt.retain.`, 'refused');
  }
  const size = publishPacketBytes(publish);
  if (said.maximumPacketSize !== undefined && size > said.maximumPacketSize) {
    return new SendError(`the message to ${publish.topic} is ${size.toLocaleString('en-US')} bytes as an MQTT packet, more than the ${said.maximumPacketSize.toLocaleString('en-US')} bytes ${broker} takes (its CONNACK's Maximum Packet Size), so Ferry did not publish it: ${dropped}. Send a smaller body, or raise the broker's limit.`, 'refused');
  }
  return undefined;
}

/** The bytes of the MQTT 5 PUBLISH Ferry sends (no properties): fixed header, topic, packet id at QoS 1 and 2, properties length, payload. */
function publishPacketBytes(publish: Publish): number {
  const rest = 2 + Buffer.byteLength(publish.topic) + (publish.qos > 0 ? 2 : 0) + 1 + publish.payload.length;
  const lengthBytes = rest < 128 ? 1 : rest < 16_384 ? 2 : rest < 2_097_152 ? 3 : 4;
  return 1 + lengthBytes + rest;
}
