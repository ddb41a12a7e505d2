/** CONNACK refusals named for people (MQTT 3.1.1 return codes, MQTT 5 reason codes), with what to do. */
import { SendError } from '../send-error.js';

const V311: Record<number, [string, string]> = {
  1: ['unacceptable protocol version', 'The broker does not speak MQTT 3.1.1; try mqtt.version v5.'],
  2: ['identifier rejected', 'Check mqtt.clientId (an empty id with cleanSession false is refused by MQTT 3.1.1 brokers).'],
  3: ['server unavailable', 'The broker is up but not taking connections; try again later.'],
  4: ['bad user name or password', "Check the request's basic auth username and password."],
  5: ['not authorized', "The broker does not let this client connect; check the request's basic auth and the broker's access rules."],
};

const V5: Record<number, [string, string]> = {
  0x80: ['unspecified error', ''],
  0x81: ['malformed packet', ''],
  0x82: ['protocol error', ''],
  0x83: ['implementation specific error', ''],
  0x84: ['unsupported protocol version', 'The broker does not speak MQTT 5; try mqtt.version v311.'],
  0x85: ['client identifier not valid', 'Check mqtt.clientId.'],
  0x86: ['bad user name or password', "Check the request's basic auth username and password."],
  0x87: ['not authorized', "The broker does not let this client connect; check the request's basic auth and the broker's access rules."],
  0x88: ['server unavailable', 'Try again later.'],
  0x89: ['server busy', 'Try again later.'],
  0x8a: ['banned', ''],
  0x8c: ['bad authentication method', ''],
  0x95: ['packet too large', ''],
  0x97: ['quota exceeded', ''],
  0x99: ['payload format invalid', ''],
  0x9a: ['retain not supported', 'Turn off mqtt.retain.'],
  0x9b: ['QoS not supported', 'Lower mqtt.qos.'],
  0x9c: ['use another server', ''],
  0x9d: ['server moved', ''],
  0x9f: ['connection rate exceeded', 'Try again later.'],
};

/** The broker answered CONNECT with a refusal: one line naming the code, its meaning, and what to do. */
export function connackRefusal(code: number, version: 'v311' | 'v5', host: string): SendError {
  if (version === 'v5' && code === 1) {
    // A 3.1.1-only broker answers MQTT 5's CONNECT with its own return code 1.
    return new SendError(`the MQTT broker at ${host} refused the connection: unacceptable protocol version (CONNACK return code 1). The broker does not speak MQTT 5; try mqtt.version v311.`, 'refused');
  }
  const table = version === 'v5' && code >= 0x80 ? V5 : V311;
  const [what, todo] = table[code] ?? ['refused', ''];
  const label = version === 'v5' ? `reason code 0x${code.toString(16)}` : `return code ${code}`;
  return new SendError(`the MQTT broker at ${host} refused the connection: ${what} (CONNACK ${label}).${todo ? ` ${todo}` : ''}`, 'refused');
}
