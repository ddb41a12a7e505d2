/** The `dns` request kind: a name and a record type asked of a resolver or server (spec 2.8). */
import { loadOnce } from '../../support/load-once.js';
import type { RequestKindModule } from '../kind.js';

const dnsClient = loadOnce(() => import('./dns.js'));

export const dnsKind: RequestKindModule = {
  kind: 'dns',
  noun: 'a DNS request',
  url: 'text',
  schemes: [],
  method: 'text',
  methodIs: 'the record type to ask for',
  methodWhenEmpty: 'A',
  options: 'dns',
  methodChoices: ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'SRV', 'PTR', 'CAA', 'HTTPS', 'SVCB', 'NAPTR', 'DS', 'DNSKEY', 'ANY'],
  tag: (method) => `dns ${(method.trim() || dnsKind.methodWhenEmpty!).toUpperCase()}`,
  exportsAsCode: false,
  sendsAuth: 'none',
  sendsHeaders: false,
  send: async (prepared, context, signal) => (await dnsClient()).sendDns(prepared, context, signal),
};
