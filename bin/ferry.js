#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ keeps V8's compiled code of Ferry's modules between runs (in the system's temporary
// folder, or NODE_COMPILE_CACHE); Node 20 has no such cache and skips this. It must come before
// Ferry's modules load, hence the dynamic import.
module.enableCompileCache?.();
// A Ctrl-C (or SIGTERM) while Ferry loads is held, not Node's sudden end: the command takes it
// as it would a later one (`ferry run` ends with its summary and reports), or Node ends on it then.
const held = [];
const hold = (signal) => void held.push(signal);
process.on('SIGINT', hold).on('SIGTERM', hold);
const release = () => void process.off('SIGINT', hold).off('SIGTERM', hold);

// The bundle `npm run build` makes (scripts/bundle-cli.mjs).
const { main } = await import('../dist/bundle/ferry.js');

process.exitCode = await main(process.argv.slice(2), { heldSignals: { signals: held, release } });
