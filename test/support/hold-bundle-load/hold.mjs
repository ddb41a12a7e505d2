/**
 * `node --import hold.mjs bin/ferry.js ...`: the load of Ferry's bundle (dist/bundle/ferry.js)
 * waits on the named pipe FERRY_HOLD_FIFO: a test opens it to know the process is loading Ferry,
 * does what it wants to happen at that moment (a Ctrl-C), and closes it to let the load go on.
 */
import { register } from 'node:module';

const fifo = process.env.FERRY_HOLD_FIFO;
if (!fifo) throw new Error('hold.mjs: set FERRY_HOLD_FIFO to a named pipe (mkfifo)');
register('./hooks.mjs', import.meta.url, { data: { fifo } });
