/**
 * The reporters by name, as `-r` and the app name them: one line each, so adding a reporter is
 * one file and one line here, and callers ask the table instead of branching per reporter.
 */
import type { Reporter } from '../events.js';
import { CliReporter } from './cli.js';
import { JsonReporter } from './json.js';
import { JunitReporter } from './junit.js';

/** Where a reporter writes its text (stdout or a report file), and whether colour may be used. */
export interface ReportSink {
  write(text: string): Promise<void> | void;
  color: boolean;
}

export const REPORTERS = {
  cli: (sink: ReportSink): Reporter => new CliReporter({ write: (text) => void sink.write(text), color: sink.color }),
  json: (sink: ReportSink): Reporter => new JsonReporter((text) => sink.write(text)),
  junit: (sink: ReportSink): Reporter => new JunitReporter((text) => sink.write(text)),
} as const;

export type ReporterName = keyof typeof REPORTERS;

/** In the order help texts and messages list them. */
export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

export function isReporterName(name: string): name is ReporterName {
  return Object.hasOwn(REPORTERS, name);
}

export function createReporter(name: ReporterName, sink: ReportSink): Reporter {
  return REPORTERS[name](sink);
}
