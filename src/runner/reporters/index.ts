/**
 * The reporters by name, as `-r` and the app name them: one line each, so adding a reporter is
 * one file and one line here, and callers ask the table instead of branching per reporter.
 */
import type { Reporter } from '../events.js';
import { CliReporter } from './cli.js';
import { JsonReporter } from './json.js';
import { JunitReporter } from './junit.js';
import { HtmlReporter } from './html.js';

/**
 * Where a reporter writes its text (stdout or a report file), and whether colour may be used.
 * Reports come in pieces as they are made (`write` appends); `end` is called once the reporter
 * has written everything (a report file is then put in place).
 */
export interface ReportSink {
  write(text: string): Promise<void> | void;
  end?(): Promise<void> | void;
  color: boolean;
}

/** What a run asked the reporters to show beyond their usual output. */
export interface ReportOptions {
  /** `--verbose`: the terminal report shows each response's status line, headers and body. */
  verbose?: boolean;
  /** `--report-bodies`: reports that can (JSON, HTML) keep each response's headers and body. */
  bodies?: boolean;
}

export const REPORTERS = {
  cli: (sink: ReportSink, options: ReportOptions): Reporter => new CliReporter({ write: (text) => void sink.write(text), color: sink.color }, { verbose: options.verbose }),
  json: (sink: ReportSink, options: ReportOptions): Reporter => new JsonReporter((text) => sink.write(text), { bodies: options.bodies }),
  junit: (sink: ReportSink): Reporter => new JunitReporter((text) => sink.write(text)),
  html: (sink: ReportSink, options: ReportOptions): Reporter => new HtmlReporter((text) => sink.write(text), { bodies: options.bodies }),
} as const;

export type ReporterName = keyof typeof REPORTERS;

/** In the order help texts and messages list them. */
export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

export function isReporterName(name: string): name is ReporterName {
  return Object.hasOwn(REPORTERS, name);
}

/** The reporter `name` writing to `sink`; its `finish` ends the sink once the report is whole. */
export function createReporter(name: ReporterName, sink: ReportSink, options: ReportOptions = {}): Reporter {
  const reporter = REPORTERS[name](sink, options);
  return {
    onEvent: (event) => reporter.onEvent(event),
    finish: async () => {
      await reporter.finish?.();
      await sink.end?.();
    },
  };
}
