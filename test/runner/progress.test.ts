import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { CliReporter, ProgressReporter, runRequests } from '../../src/runner/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { makeWorkspace } from './workspace.js';

const CLEAR = '\r\u001b[2K';

let peer: Peer;
beforeAll(async () => {
  peer = await startHttp1();
});
afterAll(() => peer.close());

describe('the progress line', () => {
  it('shows which request of how many is in flight, with its time, and erases it before each result', async () => {
    const temp = await makeWorkspace({
      'requests/1 fast.yaml': { name: 'fast', seq: 1, url: `${peer.url}/echo` },
      'requests/2 slow.yaml': { name: 'slow', seq: 2, url: `${peer.url}/slow?ms=1300` },
    });
    try {
      process.env.FERRY_DATA_DIR = temp.dataDir;
      const ws = await openWorkspace(temp.root);
      // One terminal: the progress line (stderr) and the cli report (stdout) interleave on it.
      const screen: string[] = [];
      const progress = new ProgressReporter({ write: (t) => void screen.push(`[err]${t}`) });
      const cli = new CliReporter({ write: (t) => void screen.push(`[out]${t}`), color: false });
      await runRequests({ workspace: ws, dataFolder: false, settings: DEFAULT_SETTINGS, reporters: [progress, cli] });

      const drawn = screen.filter((s) => s.startsWith('[err]') && s !== `[err]${CLEAR}`);
      expect(drawn).toContain(`[err]${CLEAR}→ fast (1/2)`);
      expect(drawn).toContain(`[err]${CLEAR}→ slow (2/2)`);
      // The slow request's line was redrawn with its elapsed time while it was in flight.
      expect(drawn.some((l) => /→ slow \(2\/2\) 1\.\d\d s$/.test(l))).toBe(true);
      // A redraw happens only when the text changes.
      expect(new Set(drawn).size).toBe(drawn.length);
      // Each result printed on stdout comes right after the progress line was erased.
      const results = screen.flatMap((s, i) => (/^\[out\](?:[\s\S]*\n)?[✓✗] /.test(s) ? [i] : []));
      expect(results).toHaveLength(2);
      for (const i of results) expect(screen[i - 1]).toBe(`[err]${CLEAR}`);
      expect(screen.at(-1)!.startsWith('[out]')).toBe(true);
    } finally {
      await temp.cleanup();
    }
  });

  it('names the iteration when there are several', () => {
    const writes: string[] = [];
    const progress = new ProgressReporter({ write: (t) => void writes.push(t) });
    progress.onEvent({ type: 'sending', path: 'a.yaml', name: 'a', position: 3, total: 5, iteration: 1, iterations: 4 });
    progress.onEvent({ type: 'end', summary: { requests: 0, failedRequests: 0, skippedRequests: 0, tests: 0, failedTests: 0, durationMs: 0, iterations: 4 }, bailed: false, interrupted: false });
    expect(writes).toEqual([`${CLEAR}→ a (3/5, iteration 2/4)`, CLEAR]);
  });

  it('keeps a name with a line feed on its one line (erasing the line would leave the part above it on the screen)', () => {
    const writes: string[] = [];
    const progress = new ProgressReporter({ write: (t) => void writes.push(t) });
    progress.onEvent({ type: 'sending', path: 'a.yaml', name: 'a\nb\x1b[2J', position: 1, total: 1, iteration: 0, iterations: 1 });
    progress.onEvent({ type: 'warning', message: 'x' });
    expect(writes).toEqual([`${CLEAR}→ a\\nb\\x1b[2J (1/1)`, CLEAR]);
  });

  it('writes nothing when there is nothing in flight', async () => {
    const writes: string[] = [];
    const progress = new ProgressReporter({ write: (t) => void writes.push(t) });
    progress.onEvent({ type: 'warning', message: 'x' });
    await progress.finish();
    expect(writes).toEqual([]);
  });
});
