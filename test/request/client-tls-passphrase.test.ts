/**
 * A wrong (or missing) passphrase for an encrypted client key is said as such. OpenSSL mostly
 * fails the decryption ("bad decrypt"), but about one passphrase in 256 decrypts to garbage with
 * valid padding and fails later as a key it cannot decode: both must read as the passphrase.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCertificate } from '../../src/request/client-tls.js';

const { privateKey } = crypto.generateKeyPairSync('rsa', {
  modulusLength: 1024,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'open sesame' },
});

/** The first wrong passphrase whose failure OpenSSL words as `pattern`. */
function wrongPassphraseFailingAs(pattern: RegExp): string {
  for (let i = 0; i < 20_000; i++) {
    try {
      crypto.createPrivateKey({ key: privateKey, passphrase: `wrong ${i}` });
    } catch (error) {
      if (pattern.test((error as Error).message)) return `wrong ${i}`;
    }
  }
  throw new Error(`no passphrase failed as ${pattern}`);
}

describe('an encrypted client key with a wrong passphrase', () => {
  for (const [how, pattern] of [['bad decrypt', /bad decrypt/], ['a key OpenSSL cannot decode', /DECODER routines/]] as const) {
    it(`failing as ${how} is said to be the passphrase`, () => {
      const passphrase = wrongPassphraseFailingAs(pattern);
      const problem = checkCertificate({ host: 'localhost', key: Buffer.from(privateKey), passphrase, source: 'c.pem + k.pem' });
      expect(problem).toBe('the client certificate for localhost (c.pem + k.pem) cannot be used: the passphrase is wrong or missing. Give it as "passphrase" in ferry config set clientCertificates (it is kept in the secret store).');
    });
  }
});
