/** The port a server made in the app gets (2.11, model/server.ts): its kind's, else the next one no server file asks for. */
import { describe, expect, it } from 'vitest';
import { newServerPort } from '../../src/model/index.js';

describe('newServerPort', () => {
  it("gives the kind's app port when no file asks for it, else the next free one above it", () => {
    expect(newServerPort('http', [])).toBe(3000);
    expect(newServerPort('http', [0, 8080])).toBe(3000);
    expect(newServerPort('http', [3000])).toBe(3001);
    expect(newServerPort('http', [3001, 3000, 3002])).toBe(3003);
    expect(newServerPort('dns', [3000, 1053])).toBe(1054);
  });

  it('gives 0 (any free port) when every port from the kind\'s up is asked for', () => {
    expect(newServerPort('tcpProxy', Array.from({ length: 65536 - 9100 }, (_, i) => 9100 + i))).toBe(0);
  });
});
