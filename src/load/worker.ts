/** A generator worker thread's entry: runs one Generator with the config it was given. */
import { parentPort, workerData } from 'node:worker_threads';
import { Generator } from './generator.js';
import { CaptureTimeLimitError, type GeneratorConfig, type MainMessage, type WorkerMessage } from './wire.js';

const port = parentPort!;
const post = (message: WorkerMessage) => port.postMessage(message);
const generator = new Generator(workerData as GeneratorConfig, post);
port.on('message', (message: MainMessage) => {
  if (message.type === 'stop') {
    generator.stop();
    if (!started) run(Date.now()); // stopped before it started: report empty counts
  }
  // Every worker starts the schedule at the same moment, once all of them are up.
  if (message.type === 'start' && !started) run(message.startAt);
  if (message.type === 'workers') generator.share(message.active);
});
let started = false;
post({ type: 'ready' });

function run(startAt: number): void {
  started = true;
  void generator.run(startAt).then(
    () => port.close(),
    (error: Error) => {
      // A capture past its time limit is the workspace's doing: its message, without a stack.
      post(error instanceof CaptureTimeLimitError ? { type: 'failed', message: error.message, capture: true } : { type: 'failed', message: error.stack ?? error.message });
      port.close();
    },
  );
}
