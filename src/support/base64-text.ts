/**
 * Base64 as a person types it into a message composer: standard or URL-safe, spaces and line
 * breaks ignored, at most two `=`. One rule for what Ferry sends (protocols/live) and what the
 * app's page keeps as a draft; no Node API here, the page imports it too.
 */

/** What the rule accepts, in words, for messages. */
export const BASE64_RULE = 'letters, digits, + and / or - and _, then up to two =';

/** The Base64 without spaces and line breaks, or undefined when it is not Base64 by the rule. */
export function compactBase64(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '');
  return /^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) && compact.length % 4 !== 1 ? compact : undefined;
}
