/** Runs `ferry` from the sources in a child process (for tests that need signals). */
import { main } from '../../../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
