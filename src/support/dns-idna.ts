/**
 * A DNS name typed with letters beyond ASCII (`münchen.example`) as DNS carries it: each such label
 * in its IDNA ASCII form (`xn--mnchen-3ya`), as kdig, dig, browsers and Node's own resolver send
 * it. Labels already ASCII stay as typed (their letter case too). One rule for the DNS request's
 * question and the DNS server's record names, so a name typed the same way in both matches.
 */
import { domainToASCII } from 'node:url';

/** The name with its non-ASCII labels converted, or the first label IDNA cannot write (a space, a joiner out of place). */
export function asciiDnsName(name: string): { name: string } | { badLabel: string } {
  if (!/[^\x00-\x7f]/.test(name)) return { name };
  const labels = name.split('.').map((label) => (/[^\x00-\x7f]/.test(label) ? domainToASCII(label) || { badLabel: label } : label));
  const bad = labels.find((label): label is { badLabel: string } => typeof label !== 'string');
  return bad ?? { name: labels.join('.') };
}
