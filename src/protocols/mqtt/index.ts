/** The `mqtt` request kind: `mqtt://` and `mqtts://`, publishes read by the shared stop rule (spec 2.7, 2.8). */
import { loadOnce } from '../../support/load-once.js';
import type { RequestKindModule } from '../kind.js';

const mqttClient = loadOnce(() => import('./mqtt.js'));

export const mqttKind: RequestKindModule = {
  kind: 'mqtt',
  noun: 'an MQTT request',
  url: 'url',
  schemes: ['mqtt', 'mqtts'],
  method: 'none',
  options: 'mqtt',
  tag: () => 'mqtt',
  exportsAsCode: false,
  sendsAuth: 'basic',
  sendsHeaders: false,
  send: async (prepared, context, signal) => (await mqttClient()).sendMqtt(prepared, context, signal),
  connect: async (prepared, context, handlers, signal) => (await mqttClient()).connectMqtt(prepared, context, handlers, signal),
  composer: {
    formats: ['text', 'json', 'hex', 'base64'],
    fields: ['topic', 'qos', 'retain'],
    operations: [
      { name: 'subscribe', label: 'Subscribe', params: ['topic', 'qos'] },
      { name: 'unsubscribe', label: 'Unsubscribe', params: ['topic'] },
    ],
    when: 'always',
  },
};
