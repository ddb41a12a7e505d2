import { describe, expect, it } from 'vitest';
import { finalUrl, urlKeepingPlaceholders } from '../../src/request/url.js';

describe('finalUrl', () => {
  it('adds http:// to a URL typed without a scheme', () => {
    expect(finalUrl('127.0.0.1:8080/a', 'here').href).toBe('http://127.0.0.1:8080/a');
  });

  it('names an unfilled host placeholder as it was typed, not lower-cased', () => {
    expect(() => finalUrl('{{baseUrl}}/users', 'requests/Get.yaml')).toThrow(
      'requests/Get.yaml: the URL still holds {{baseUrl}} where the host should be; define the variable or choose an environment with -e.',
    );
  });

  it('says how to choose an environment as the face showing it does: -e on the command line, the selector in the app', () => {
    expect(() => finalUrl('{{baseUrl}}/users', 'r', undefined, undefined, 'cli')).toThrow('choose an environment with -e.');
    expect(() => finalUrl('{{baseUrl}}/users', 'r', undefined, undefined, 'app')).toThrow(
      'r: the URL still holds {{baseUrl}} where the host should be; define the variable or choose an environment in the Environment selector of the top bar.',
    );
  });

  it('refuses other schemes and empty URLs with what to do', () => {
    expect(() => finalUrl('ftp://x/y', 'r')).toThrow('r: an HTTP request needs an http:// or https:// URL, not ftp://.');
    expect(() => finalUrl('  ', 'r')).toThrow('r: the URL is empty; give the address to send to.');
  });

  it('refuses a scheme that is not one (or none before ://) instead of sending to a host of that name', () => {
    expect(() => finalUrl('ht tp://x', 'r')).toThrow('r: url "ht tp://x" is not a valid URL: "ht tp" is not a scheme; begin it with http:// or https://.');
    expect(() => finalUrl('://x/y', 'r')).toThrow('r: url "://x/y" is not a valid URL: it has nothing before ://; begin it with http:// or https://.');
    expect(() => finalUrl('w$s://x', 'r', 'a WebSocket request', ['ws', 'wss'])).toThrow('"w$s" is not a scheme; begin it with ws:// or wss://.');
    expect(finalUrl('localhost:8080//x', 'r').href).toBe('http://localhost:8080//x');
  });

  it('refuses a URL whose host is missing before more slashes, instead of taking the path\'s first part as the host', () => {
    // `{{baseUrl}}/spacecrafts/1` with baseUrl `/` (a Postman export's default): Newman says "Invalid URI".
    expect(() => finalUrl('//spacecrafts/1', 'r')).toThrow('r: "//spacecrafts/1" has no host; give the server\'s address (http://host:port).');
    expect(() => finalUrl('http:///x', 'r')).toThrow('r: "http:///x" has no host; give the server\'s address (http://host:port).');
    expect(finalUrl('http://h//x', 'r').href).toBe('http://h//x');
  });

  it('keeps placeholders as written for code export', () => {
    const { url, restore } = urlKeepingPlaceholders('{{baseUrl}}/users/{{id}}?q={{q}}', 'r');
    expect(restore(url.href)).toBe('{{baseUrl}}/users/{{id}}?q={{q}}');
  });
});
