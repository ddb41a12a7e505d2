/** The traffic record of one DNS query and its answer: `A api.example.test → NOERROR, 1 answer (udp)`. */
import { epochMsOf } from '../../traffic.js';
import type { TrafficRecord } from '../../types.js';

export interface DnsDetail {
  peer: string;
  transport: 'udp' | 'tcp';
  name: string;
  type: string;
  rcode: string;
  answers: number;
  truncated?: boolean;
  /** Set when the answer came from the upstream. */
  upstream?: string;
}

export type DnsRecord = TrafficRecord<DnsDetail>;

export function dnsRecord(server: string, detail: DnsDetail, start: number, bytesIn: number, bytesOut: number): DnsRecord {
  const count = `${detail.answers} answer${detail.answers === 1 ? '' : 's'}`;
  const record: DnsRecord = {
    kind: 'dns',
    server,
    time: epochMsOf(start),
    direction: 'exchange',
    summary: `${detail.type} ${detail.name} → ${detail.rcode}, ${count} (${detail.transport})`,
    level: detail.rcode === 'NOERROR' ? 'info' : detail.rcode === 'NXDOMAIN' ? 'warning' : 'error',
    durationMs: performance.now() - start,
    bytesIn,
    bytesOut,
    detail,
  };
  if (detail.truncated) record.note = 'truncated: over 512 bytes on UDP';
  else if (detail.upstream !== undefined) record.note = `from upstream ${detail.upstream}`;
  return record;
}
