/**
 * Broadcast addresses (spec 2.8 `broadcast`): 255.255.255.255 and the broadcast address of each
 * IPv4 network this computer is on (from its interfaces' netmasks, loopback's too).
 */
import os from 'node:os';

export function isBroadcast(address: string): boolean {
  if (address === '255.255.255.255') return true;
  const target = ipv4(address);
  if (target === undefined) return false;
  for (const list of Object.values(os.networkInterfaces())) {
    for (const info of list ?? []) {
      if (info.family !== 'IPv4') continue;
      const mask = ipv4(info.netmask)!;
      if (mask === 0xffffffff) continue; // a host route has no broadcast address
      if (((ipv4(info.address)! & mask) | ~mask) >>> 0 === target) return true;
    }
  }
  return false;
}

function ipv4(text: string): number | undefined {
  const parts = text.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}
