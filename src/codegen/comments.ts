import type { PreparedRequest } from '../request/prepared.js';

const SIGNING_NAMES: Record<string, string> = {
  awsv4: 'AWS Signature Version 4',
  oauth1: 'OAuth 1.0',
  jwt: 'JWT Bearer',
  hawk: 'Hawk',
  edgegrid: 'Akamai EdgeGrid',
  asap: 'ASAP',
};

/** Spec 4.7 rule 7: what the code cannot do for the request's auth, and the `<access-token>` placeholder. */
export function authComments(prepared: PreparedRequest): string[] {
  const type = prepared.authType;
  if (type === 'digest' || type === 'ntlm') {
    const name = type === 'digest' ? 'Digest' : 'NTLM';
    return [
      `${name} auth: this code cannot answer the server's ${name} challenge, so it sends no credentials.`,
      // True for both since Ferry answers NTLM too (the three-message handshake, protocols/http/ntlm.ts).
      `Send the request from Ferry, or use a client with ${name} support (for example ${type === 'digest' ? 'curl --digest -u USER:PASSWORD' : 'curl --ntlm -u DOMAIN\\USER:PASSWORD'}).`,
    ];
  }
  const signing = SIGNING_NAMES[type];
  if (signing) {
    // Requests built without prepareRequest say nothing: a signature header means signed.
    if (prepared.signed ?? prepared.headers.some((h) => h.name.toLowerCase() === 'authorization')) {
      return [
        `${signing}: the signature below was made for one send and expires soon.`,
        'This code cannot sign each request: sign it again before sending (Ferry does this on every send).',
      ];
    }
    // The reason is the one a send would give (a field left empty, a key that does not read).
    const article = /^[AEIOU]/.test(signing) ? 'an' : 'a';
    return [
      prepared.signProblem
        ? `${signing}: this code cannot sign the request, and Ferry could not sign it for this export: ${prepared.signProblem}`
        : `${signing}: this code cannot sign the request, and Ferry could not sign it for this export (check the auth settings).`,
      `No credentials are sent: sign each request with ${article} ${signing} library.`,
    ];
  }
  if (type === 'oauth2' && prepared.oauth2TokenCached === false) {
    return [
      'OAuth 2.0: Ferry has no cached access token for this request.',
      'Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.',
    ];
  }
  return [];
}
