/**
 * Reads curl's arguments the way curl does: clustered short flags (`-sSLk`), attached values
 * (`-XPOST`, `-H'X: 1'`), abbreviated long names, `--no-` switches, `--` ending the options, and
 * `--next` starting another request (only the first is imported).
 */
import { lookupLong, lookupShort, type CurlOption } from './options.js';

export interface GivenOption {
  option: CurlOption;
  /** The argument, for options that take one. */
  value: string;
  /** `--no-location` and the like. */
  negated: boolean;
}

export interface CurlArguments {
  /** Options of the first request, in the order given. */
  options: GivenOption[];
  urls: string[];
  /** Options curl does not know, as written. */
  unknown: string[];
  /** True when `--next` (or `-:`) was given: later requests are not imported. */
  hasNext: boolean;
  /** An option that needs an argument came last with none. */
  missingArgument?: string;
}

export function parseCurlArgs(args: string[]): CurlArguments {
  const result: CurlArguments = { options: [], urls: [], unknown: [], hasNext: false };
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (optionsEnded || !arg.startsWith('-') || arg === '-') {
      result.urls.push(arg);
      continue;
    }
    if (arg === '--') { optionsEnded = true; continue; }
    if (arg.startsWith('--')) {
      const found = lookupLong(arg.slice(2));
      if (!found) { result.unknown.push(arg); continue; }
      if (found.option.long === 'next') { result.hasNext = true; break; }
      let value = '';
      if (found.option.takesArg) {
        if (i + 1 >= args.length) { result.missingArgument = arg; break; }
        value = args[++i]!;
      }
      result.options.push({ option: found.option, value, negated: found.negated });
      continue;
    }
    // Short options, possibly clustered; the first that takes an argument eats the rest or the next word.
    let stop = false;
    for (let j = 1; j < arg.length; j++) {
      const option = lookupShort(arg[j]!);
      if (!option) { result.unknown.push(`-${arg[j]}`); continue; }
      if (option.long === 'next') { result.hasNext = true; stop = true; break; }
      if (!option.takesArg) { result.options.push({ option, value: '', negated: false }); continue; }
      let value = arg.slice(j + 1);
      if (value === '') {
        if (i + 1 >= args.length) { result.missingArgument = `-${arg[j]}`; stop = true; break; }
        value = args[++i]!;
      }
      result.options.push({ option, value, negated: false });
      break;
    }
    if (stop) break;
  }
  return result;
}
