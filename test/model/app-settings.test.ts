/**
 * The application settings are declared once (model/app-settings.ts): every default, range and
 * text form, the request files' bounds and the documented table come from that one declaration.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APP_SETTINGS, APP_SETTING_KEYS, DEFAULT_SETTINGS, describeRange, formatSetting, isValidSetting, MAX_REDIRECTS, parseResource,
  parseSettingText, REQUEST_LEVEL_KEYS, type AppSettingKey,
} from '../../src/model/index.js';
import { effectiveSettings } from '../../src/request/index.js';

describe('application settings', () => {
  it('every default comes from the declaration and is a valid value', () => {
    expect(Object.keys(DEFAULT_SETTINGS)).toEqual(APP_SETTING_KEYS);
    for (const key of APP_SETTING_KEYS) {
      expect(DEFAULT_SETTINGS[key]).toBe(APP_SETTINGS[key].default);
      expect(isValidSetting(key, DEFAULT_SETTINGS[key]), key).toBe(true);
    }
  });

  it('ferry config text: each whole number is taken at its bounds and refused past them, naming the range', () => {
    for (const key of APP_SETTING_KEYS) {
      const declared = APP_SETTINGS[key];
      if (declared.type !== 'wholeNumber') continue;
      expect(parseSettingText(key, String(declared.min))).toEqual({ ok: true, value: declared.min });
      expect(parseSettingText(key, String(declared.max))).toEqual({ ok: true, value: declared.max });
      const below = String(declared.min - 1);
      expect(parseSettingText(key, below)).toEqual({ ok: false, message: `Setting ${key} takes a whole number ${describeRange(declared)}, not "${below}".` });
      if (declared.max < Number.MAX_SAFE_INTEGER) {
        expect(parseSettingText(key, String(declared.max + 1)).ok, key).toBe(false);
        // A value stored past the range (a hand edit) is ignored the same way.
        expect(isValidSetting(key, declared.max + 1), key).toBe(false);
      }
    }
  });

  it('ferry config text: a whole number is written in digits; empty text is not 0 (for timeoutMs, no limit at all)', () => {
    for (const key of APP_SETTING_KEYS) {
      const declared = APP_SETTINGS[key];
      if (declared.type !== 'wholeNumber') continue;
      // Number() reads each of these as a number in range: '' and ' ' as 0, '0x10' as 16, '1e3' as 1000.
      for (const text of ['', ' ', '0x10', '1e3', '10.0', '+5', '0b11']) {
        expect(parseSettingText(key, text), `${key} ${JSON.stringify(text)}`).toEqual({ ok: false, message: `Setting ${key} takes a whole number ${describeRange(declared)}, not "${text}".` });
      }
    }
    expect(parseSettingText('timeoutMs', ' 5000 ')).toEqual({ ok: true, value: 5000 });
  });

  it('ferry config text: flags and choices', () => {
    expect(parseSettingText('verifyTls', 'off')).toEqual({ ok: true, value: false });
    expect(parseSettingText('verifyTls', 'maybe')).toEqual({ ok: false, message: 'Setting verifyTls takes true or false, not "maybe".' });
    expect(parseSettingText('httpVersion', 'http2')).toEqual({ ok: true, value: 'http2' });
    expect(parseSettingText('httpVersion', 'http9')).toEqual({ ok: false, message: 'Setting httpVersion takes auto, http1 or http2, not "http9".' });
    // http3 is a value of the format (a request's or a load test's field), not of this computer's setting.
    expect(parseSettingText('httpVersion', 'http3')).toEqual({ ok: false, message: 'Setting httpVersion takes auto, http1 or http2, not "http3": HTTP/3 is not supported yet.' });
    expect(isValidSetting('httpVersion', 'http3')).toBe(false);
    expect(parseResource('request', { name: 'r', settings: { httpVersion: 'http3' } }).ok).toBe(true);
  });

  it('ferry config text: the proxy URL, lists, and none to clear', () => {
    expect(parseSettingText('proxy', 'socks5://127.0.0.1:1080')).toEqual({ ok: true, value: 'socks5://127.0.0.1:1080' });
    expect(parseSettingText('proxy', 'none')).toEqual({ ok: true, value: '' });
    expect(parseSettingText('proxy', 'ftp://p:21')).toEqual({
      ok: false,
      message: 'Setting proxy takes a proxy URL such as http://proxy.example:3128 or socks5://127.0.0.1:1080 (or none): a proxy URL starts with http://, https:// or socks5://, not ftp://.',
    });
    expect(parseSettingText('proxy', 'proxy:3128').ok).toBe(false);
    expect(isValidSetting('proxy', 'gopher://x')).toBe(false);
    expect(parseSettingText('noProxy', ' .corp.test, 10.0.0.0/8 ,')).toEqual({ ok: true, value: ['.corp.test', '10.0.0.0/8'] });
    expect(parseSettingText('noProxy', 'none')).toEqual({ ok: true, value: [] });
    expect(formatSetting(['a', 'b'])).toBe('a,b');
    expect(formatSetting('')).toBe('none');
  });

  it('settings.proxy: false is the one per-request proxy value', () => {
    expect(parseResource('request', { name: 'r', settings: { proxy: false } }).ok).toBe(true);
    const refused = parseResource('request', { name: 'r', settings: { proxy: 'http://p:1' } });
    expect(refused.ok).toBe(false);
    expect(effectiveSettings(DEFAULT_SETTINGS, { proxy: false }).proxy).toBe(false);
    expect('proxy' in effectiveSettings(DEFAULT_SETTINGS, {})).toBe(false);
  });

  it('maxRedirects has one bound, in request files and in ferry config alike', () => {
    const request = (maxRedirects: number) => parseResource('request', { name: 'r', settings: { maxRedirects } });
    expect(request(MAX_REDIRECTS).ok).toBe(true);
    const refused = request(MAX_REDIRECTS + 1);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problems[0]!.message).toBe(`must be at most ${MAX_REDIRECTS}`);
    expect(parseSettingText('maxRedirects', String(MAX_REDIRECTS)).ok).toBe(true);
    expect(parseSettingText('maxRedirects', String(MAX_REDIRECTS + 1))).toEqual({
      ok: false, message: `Setting maxRedirects takes a whole number from 0 to ${MAX_REDIRECTS}, not "${MAX_REDIRECTS + 1}".`,
    });
  });

  it('a request overrides exactly the request-level settings, each with the same check as ferry config', () => {
    expect(REQUEST_LEVEL_KEYS).toEqual(['timeoutMs', 'followRedirects', 'maxRedirects', 'verifyTls', 'httpVersion', 'decompress']);
    const prepared = effectiveSettings({ ...DEFAULT_SETTINGS, timeoutMs: 7 }, { maxRedirects: 3 }, { verifyTls: false });
    expect(prepared).toEqual({ timeoutMs: 7, followRedirects: true, maxRedirects: 3, verifyTls: false, httpVersion: 'auto', decompress: true });
    for (const key of REQUEST_LEVEL_KEYS) {
      const wrong = APP_SETTINGS[key].type === 'flag' ? 'yes' : -1;
      const parsed = parseResource('request', { name: 'r', settings: { [key]: wrong } });
      expect(parsed.ok, key).toBe(isValidSetting(key, wrong));
    }
  });

  it('docs/running.md lists every setting with its default', async () => {
    const doc = await fs.readFile(path.join(import.meta.dirname, '../../docs/running.md'), 'utf8');
    const rows = new Map([...doc.matchAll(/^\| `(\w+)` \| `([^`]+)` \|/gm)].map((m) => [m[1]!, m[2]!]));
    for (const key of APP_SETTING_KEYS as AppSettingKey[]) expect(rows.get(key), key).toBe(formatSetting(DEFAULT_SETTINGS[key]));
  });
});
