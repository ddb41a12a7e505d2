/** Prepared requests for the protocol tests: what `prepareRequest` would hand the senders. */
import type { PreparedRequest, PreparedSettings } from '../../src/request/prepared.js';

export const TEST_SETTINGS: PreparedSettings = { timeoutMs: 5000, followRedirects: true, maxRedirects: 10, verifyTls: true, httpVersion: 'auto', decompress: true };

/** A GET of `url` without body or auth; `over` and `settings` change what a test needs. */
export function preparedRequest(url: string, over: Partial<PreparedRequest> = {}, settings: Partial<PreparedSettings> = {}): PreparedRequest {
  return { method: 'GET', url, headers: [], body: { kind: 'none' }, authType: 'none', ...over, settings: { ...TEST_SETTINGS, ...settings } };
}
