/**
 * NTLM (NTLMv2 when the server offers extended security and target info, as Windows servers do)
 * with the `httpntlm` package's message functions only: Ferry's HTTP client sends the three
 * messages itself, on one kept-alive connection (NTLM authenticates the connection).
 */
import type { NtlmCredentials } from '../../request/prepared.js';
import { lazyRequire } from '../../support/lazy-require.js';

interface NtlmMessages {
  createType1Message(options: { domain: string; workstation: string }): string;
  parseType2Message(header: string, onError: (error: Error) => void): object | null;
  createType3Message(type2: object, options: { username: string; password: string; domain: string; workstation: string }): string;
}
const ntlmMessages = lazyRequire<NtlmMessages>(import.meta.url, 'httpntlm/ntlm.js');

/** The first message (negotiate), as an Authorization header value. */
export function ntlmNegotiate(credentials: NtlmCredentials): string {
  return ntlmMessages().createType1Message({ domain: credentials.domain, workstation: credentials.workstation });
}

/** The server's challenge from its `WWW-Authenticate` values, when it sent one. */
export function ntlmChallenge(values: readonly string[]): string | undefined {
  return values.map((v) => v.trim()).find((v) => /^NTLM\s+\S+/i.test(v))?.replace(/^ntlm/i, 'NTLM');
}

/** The third message (authenticate) answering `challenge`; throws when the challenge is malformed. */
export function ntlmAuthenticate(challenge: string, credentials: NtlmCredentials): string {
  let problem: Error | undefined;
  let type2: object | null = null;
  try {
    type2 = ntlmMessages().parseType2Message(challenge, (error) => (problem = error));
  } catch (error) {
    problem = error as Error;
  }
  if (!type2 || problem) throw new Error(`the server's NTLM challenge cannot be read (${problem?.message ?? 'not a type 2 message'})`);
  return ntlmMessages().createType3Message(type2, { ...credentials });
}
