/** The load engine's pure parts: stages, segments, weights, captures, thresholds, exact merging. */
import { describe, expect, it } from 'vitest';
import zlib, { gzipSync } from 'node:zlib';
import { captureReader } from '../../src/load/captures.js';
import { decodeBody } from '../../src/support/content-coding.js';
import type { Capture } from '../../src/load/wire.js';
import { decodeHistogram, encodeHistogram, newHistogram } from '../../src/load/histogram.js';
import { parseResource } from '../../src/model/index.js';
import { Picker } from '../../src/load/picker.js';
import { combine, type LoadResult, type TargetResult } from '../../src/load/result.js';
import { MergeError, mergeResults, parseResult, testSecond } from '../../src/load/merge.js';
import { Places } from '../../src/load/places.js';
import { isMine, parseSegment, rowsOf, shareOf } from '../../src/load/segment.js';
import { arrivalsBy, arrivalTime, checkStages, nextUsersChange, parseStages, usersAt, valueAt } from '../../src/load/stages.js';
import { judge, verdictText, type ThresholdRule } from '../../src/load/thresholds.js';
import { CaptureTimeLimitError, noErrors } from '../../src/load/wire.js';
import { BusyPoll } from '../../src/load/busy-poll.js';
import { busyShare } from '../../src/load/engine.js';

describe('stages', () => {
  const ramp = [{ durationSecs: 2, target: 100 }, { durationSecs: 1, target: 100 }];
  it('ramps linearly from 0 and holds', () => {
    expect(valueAt(ramp, 1)).toBe(50);
    expect(valueAt(ramp, 2.5)).toBe(100);
    expect(arrivalsBy(ramp, 2)).toBe(100);
    expect(arrivalsBy(ramp, 3)).toBe(200);
    // A step counts from its target on (it stopped the integral, so a test starting with one had 0 arrivals).
    expect(arrivalsBy([{ durationSecs: 0, target: 2 }, { durationSecs: 1, target: 2 }], 1)).toBe(2);
    expect(arrivalsBy([{ durationSecs: 1, target: 2 }, { durationSecs: 0, target: 10 }, { durationSecs: 0.5, target: 10 }], 1.5)).toBe(6);
  });
  it('runs the ramp\'s users rounded up: the n-th starts as the ramp passes n - 1, leaves as it falls to n - 1; a stage ending at N leaves N', () => {
    const up = [{ durationSecs: 3, target: 3 }];
    expect([0, 0.001, 0.999, 1, 1.001, 2.5, 3, 10].map((t) => usersAt(up, t))).toEqual([0, 1, 1, 1, 2, 3, 3, 3]);
    expect(usersAt([{ durationSecs: 1, target: 1 }], 0.01)).toBe(1);
    // Down from 3 to 0 over 3 s, then back up over 1 s.
    const down = [{ durationSecs: 0, target: 3 }, { durationSecs: 3, target: 0 }, { durationSecs: 1, target: 2 }];
    expect([0, 0.5, 1, 1.5, 2.999, 3, 3.2, 3.6].map((t) => usersAt(down, t))).toEqual([3, 3, 2, 2, 1, 0, 1, 2]);
    // A fraction of a user is a user; arithmetic that lands a hair above a whole number is that number.
    expect(usersAt([{ durationSecs: 1, target: 0.4 }], 0.5)).toBe(1);
    expect(usersAt([{ durationSecs: 0.3, target: 3 }, { durationSecs: 1, target: 3 }], 0.1)).toBe(1);
    // When the number next changes: where the ramp reaches the next whole number, or the stage's end.
    expect(nextUsersChange(up, 0.5)).toBeCloseTo(1, 9);
    expect(nextUsersChange(up, 1)).toBe(1);
    expect(nextUsersChange(down, 0.5)).toBeCloseTo(1, 9);
    expect(nextUsersChange([{ durationSecs: 2, target: 5 }, { durationSecs: 0, target: 9 }], 1.99999)).toBe(2);
    expect(nextUsersChange([{ durationSecs: 2, target: 5 }, { durationSecs: 3, target: 5 }], 3)).toBe(5);
    expect(nextUsersChange(up, 3)).toBe(Infinity);
  });
  it('places the k-th arrival where the integral of the rate reaches k', () => {
    for (const k of [0, 1, 25, 99, 150, 199]) expect(arrivalsBy(ramp, arrivalTime(ramp, k)!)).toBeCloseTo(k, 6);
    expect(arrivalTime(ramp, 200)).toBeUndefined();
  });
  it('places arrivals after a stage too short to measure (1e-320 s, 5e-324 s) as after a step, and ends', () => {
    for (const tiny of [5e-324, 1e-320, 1e-300]) {
      const stages = [{ durationSecs: tiny, target: 10 }, { durationSecs: 1, target: 10 }];
      expect([0, 1, 5, 9].map((k) => arrivalTime(stages, k)! - tiny).map((t) => Math.round(t * 1e9) / 1e9)).toEqual([0, 0.1, 0.5, 0.9]);
      expect(arrivalTime(stages, 10)).toBeUndefined();
    }
  });
  it('reads --stages and refuses bad ones', () => {
    expect(parseStages('30s:50,1m:50,500ms:0')).toEqual([{ durationSecs: 30, target: 50 }, { durationSecs: 60, target: 50 }, { durationSecs: 0.5, target: 0 }]);
    expect(() => parseStages('30:50')).toThrow(/"30:50" is not DURATION:TARGET/);
    // Durations as k6 writes them, units in a row.
    expect(parseStages('1m30s:20, 1h5m:20,2s500ms:0')).toEqual([{ durationSecs: 90, target: 20 }, { durationSecs: 3900, target: 20 }, { durationSecs: 2.5, target: 0 }]);
    expect(() => parseStages('1m30:20')).toThrow(/"1m30:20" is not DURATION:TARGET \(for example 30s:50, 1m:100 or 1m30s:100\)/);
    expect(() => checkStages([], 'loadtests/x.yaml')).toThrow(/loadtests\/x.yaml: stages is empty/);
    expect(() => checkStages([{ durationSecs: 5, target: 0 }], 'f')).toThrow(/nothing would be sent/);
  });
  it('refuses stages that would send nothing or last less than a timer tick, placing the field by `at`', () => {
    const at = (field: Array<string | number>) => `loadtests/x.yaml(${field.join('.')})`;
    // Users (or a rate) only at the very end, or for an instant between stages at 0.
    expect(() => checkStages([{ durationSecs: 1, target: 0 }, { durationSecs: 0, target: 5 }], 'f', 'virtualUsers', 1, at)).toThrow(
      'loadtests/x.yaml(stages.1): nothing would be sent: the users are above 0 only for an instant (stages[1] steps to 5 with durationSecs 0, and no stage that lasts follows it above 0); give a stage after it a durationSecs above 0 (for example durationSecs: 30, target: 5).',
    );
    expect(() => checkStages([{ durationSecs: 0, target: 5 }, { durationSecs: 0, target: 0 }, { durationSecs: 1, target: 0 }], 'f', 'arrivalRate')).toThrow(/^f: nothing would be sent: the rate is above 0 only for an instant \(stages\[0\]/);
    // A step then a stage that lasts, a ramp down from a step, a ramp up: each sends.
    for (const stages of [[{ durationSecs: 0, target: 5 }, { durationSecs: 1, target: 5 }], [{ durationSecs: 0, target: 5 }, { durationSecs: 1, target: 0 }], [{ durationSecs: 1, target: 0.5 }]]) {
      expect(() => checkStages(stages, 'f')).not.toThrow();
    }
    expect(() => checkStages([{ durationSecs: 0.0005, target: 5 }], 'f', 'virtualUsers', 1, at)).toThrow('loadtests/x.yaml(stages): stages last 0.0005 s in total, too short to send anything (at least 0.001 s, one millisecond); durationSecs is in seconds (0.5 is half a second).');
    expect(() => checkStages([{ durationSecs: 0.001, target: 5 }], 'f')).not.toThrow();
    expect(() => checkStages([{ durationSecs: 1, target: 200_000 }], 'f', 'virtualUsers', 1, at)).toThrow(/^loadtests\/x\.yaml\(stages\.0\.target\): stages\[0\]\.target: 200000 users/);
  });
  it('refuses more users, requests per second or time than one machine runs, saying how to split it', () => {
    expect(() => checkStages([{ durationSecs: 1, target: 100_000_000 }], 'loadtests/x.yaml', 'virtualUsers')).toThrow(
      'loadtests/x.yaml: stages[0].target: 100000000 users is more than one machine runs (at most 100000 users); lower it, or split the test over machines with --segment i/n and join the parts with ferry load merge.',
    );
    expect(() => checkStages([{ durationSecs: 1, target: 10 }, { durationSecs: 1, target: 2_000_000 }], '--stages', 'arrivalRate')).toThrow(/^--stages: stages\[1\]\.target: 2000000 requests per second is more than one machine runs \(at most 1000000 requests per second\)/);
    // A segment runs its share: four machines run four times as much.
    expect(() => checkStages([{ durationSecs: 1, target: 400_000 }], 'f', 'virtualUsers', 4)).not.toThrow();
    expect(() => checkStages([{ durationSecs: 1, target: 400_004 }], 'f', 'virtualUsers', 4)).toThrow(/400004 users is more than 4 machines run \(at most 100000 users each\)/);
    expect(() => checkStages([{ durationSecs: 100_000, target: 1 }, { durationSecs: 3_000_000, target: 1 }], 'f', 'virtualUsers')).toThrow(
      'f: stages last 3100000 s in total, longer than a load test may run (at most 2147483 s, about 24 days); did you mean milliseconds? durationSecs is in seconds.',
    );
  });
});

describe('segments', () => {
  it('split users, requests and rows so the parts add up to the whole, exactly', () => {
    expect(parseSegment('2/3')).toEqual({ index: 1, count: 3 });
    expect(() => parseSegment('4/3')).toThrow(/1 ≤ i ≤ n/);
    for (const total of [0, 1, 2, 7, 10, 1000]) {
      const parts = [0, 1, 2].map((index) => shareOf(total, { index, count: 3 }));
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
    }
    const ks = Array.from({ length: 100 }, (_, k) => k);
    expect([0, 1, 2].map((index) => ks.filter((k) => isMine(k, { index, count: 3 })).length)).toEqual([34, 33, 33]);
    expect(rowsOf(['a', 'b', 'c', 'd'], { index: 1, count: 2 })).toEqual(['b', 'd']);
  });
});

describe('weights', () => {
  it('follow the weights exactly, in file order within each round', () => {
    const picker = new Picker([3, 1]);
    const picks = Array.from({ length: 8 }, () => picker.next());
    expect(picks).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
    const half = new Picker([1, 0.5]);
    expect(Array.from({ length: 6 }, () => half.next())).toEqual([0, 0, 1, 0, 0, 1]);
    const equal = new Picker([1, 1]);
    expect([equal.next(), equal.next(), equal.next()]).toEqual([0, 1, 0]);
  });
});

describe('captures', () => {
  const body = JSON.stringify({ data: { items: [{ id: 7 }], token: 'abc' } });
  const captureValue = (capture: Capture, headers: Record<string, string>, text: string) => captureReader([capture], decodeBody)(headers, Buffer.from(text))[0]?.[1];
  it('read a JSON path, a header and a regex group', () => {
    expect(captureValue({ variable: 't', from: 'json', path: 'data.token' }, {}, body)).toBe('abc');
    expect(captureValue({ variable: 't', from: 'json', path: '$.data.items[0].id' }, {}, body)).toBe('7');
    expect(captureValue({ variable: 't', from: 'json', path: '/data/items/0/id' }, {}, body)).toBe('7');
    expect(captureValue({ variable: 't', from: 'header', path: 'X-Id' }, { 'x-id': 'i1' }, '')).toBe('i1');
    expect(captureValue({ variable: 't', from: 'regex', path: '"token":"(\\w+)"' }, {}, body)).toBe('abc');
    expect(captureValue({ variable: 't', from: 'json', path: 'missing' }, {}, body)).toBeUndefined();
    // A quoted name in brackets is one name, dots and brackets in it included (as Postman's and JSONPath's).
    const dotted = JSON.stringify({ data: { 'a.b': { 'x[0]': 'yes' }, a: { b: 'wrong' } }, 'top key': [1, { "it's": 'q' }] });
    expect(captureValue({ variable: 't', from: 'json', path: 'data["a.b"]["x[0]"]' }, {}, dotted)).toBe('yes');
    expect(captureValue({ variable: 't', from: 'json', path: "$['top key'][1][\"it's\"]" }, {}, dotted)).toBe('q');
    expect(captureValue({ variable: 't', from: 'json', path: '$.data.a.b' }, {}, dotted)).toBe('wrong');
    // A JSON null is no value (as a missing one): nothing captured, never the text "null"; other values as their JSON.
    const nulls = JSON.stringify({ token: null, list: [null], zero: 0, no: false, obj: { a: null } });
    expect(captureValue({ variable: 't', from: 'json', path: 'token' }, {}, nulls)).toBeUndefined();
    expect(captureValue({ variable: 't', from: 'json', path: 'list[0]' }, {}, nulls)).toBeUndefined();
    expect(captureValue({ variable: 't', from: 'json', path: '$' }, {}, 'null')).toBeUndefined();
    expect(captureValue({ variable: 't', from: 'json', path: 'zero' }, {}, nulls)).toBe('0');
    expect(captureValue({ variable: 't', from: 'json', path: 'no' }, {}, nulls)).toBe('false');
    expect(captureValue({ variable: 't', from: 'json', path: 'obj' }, {}, nulls)).toBe('{"a":null}');
  });

  it('regex captures read as JavaScript reads them, lookaround and backreferences included (those run under a time limit)', () => {
    const text = 'token=abc\r\nsay "hi" and \'bye\'\n';
    expect(captureValue({ variable: 't', from: 'regex', path: 'token=(.*)' }, {}, text)).toBe('abc'); // `.` stops at \r, as in JavaScript
    expect(captureValue({ variable: 't', from: 'regex', path: '(?<=token=)\\w+' }, {}, text)).toBe('abc');
    expect(captureValue({ variable: 't', from: 'regex', path: '(?=b)(\\w+)' }, {}, text)).toBe('bc');
    expect(captureValue({ variable: 't', from: 'regex', path: "(['\"])(\\w+)\\1" }, {}, text)).toBe('"');
    expect(captureValue({ variable: 't', from: 'regex', path: 'and (?<q>[\'"])(\\w+)\\k<q>' }, {}, text)).toBe("'");
    expect(captureValue({ variable: 't', from: 'regex', path: 'nothing(x)?|say' }, {}, text)).toBe('say');
  });

  it('a regex capture cannot stall the generator: (a+)+$ runs in linear time; a backtracking one stops at its time limit, naming the capture', () => {
    // 30,001 characters: a backtracking (a+)+$ would not end in the test's time, and would be cut by
    // the time limit (an error, not 'b'); the linear engine takes the value.
    const hostile = `${'a'.repeat(30_000)}b`;
    expect(captureValue({ variable: 't', from: 'regex', path: '(a+)+$|(b)' }, {}, hostile)).toBe('b');
    expect(() => captureValue({ variable: 'tail', from: 'regex', path: '(a+)+\\1$' }, {}, hostile)).toThrow(
      new CaptureTimeLimitError('the capture of "tail" (regex "(a+)+\\\\1$"): the regular expression took longer than 1 s on a text of 30001 characters and was stopped (it backtracks: nested quantifiers such as (a+)+ with a backreference or lookaround); simplify it.'),
    );
  });

  it('a reader gives each capture that found a value, in order, and the same answers read alike again', () => {
    const read = captureReader([
      { variable: 'token', from: 'json', path: 'data.token' },
      { variable: 'gone', from: 'json', path: 'data.none' },
      { variable: 'id', from: 'regex', path: '"id":(\\d+)' },
      { variable: 'uid', from: 'header', path: 'X-Id' },
    ], decodeBody);
    for (let i = 0; i < 3; i++) expect(read({ 'x-id': 'i1' }, Buffer.from(body))).toEqual([['token', 'abc'], ['id', '7'], ['uid', 'i1']]);
    // A body that is not JSON: the JSON captures find nothing, the others still read.
    expect(read({}, Buffer.from('id: "id":42'))).toEqual([['id', '42']]);
    // A compressed body is read decoded; one that does not decode leaves the body captures empty, the header ones still read.
    expect(read({ 'content-encoding': 'gzip', 'x-id': 'i2' }, gzipSync(body))).toEqual([['token', 'abc'], ['id', '7'], ['uid', 'i2']]);
    expect(read({ 'content-encoding': 'gzip', 'x-id': 'i3' }, Buffer.from(body))).toEqual([['uid', 'i3']]);
  });
});

function countsOf(request: string, samples: number[], errors = 0) {
  const h = newHistogram();
  for (const s of samples) h.recordValue(s);
  return { request, count: samples.length, errors: { ...noErrors(), status: errors }, statuses: { 200: samples.length - errors, 500: errors }, dropped: 0, bytesSent: 0, bytesReceived: 0, histogram: encodeHistogram(h) };
}

describe('merging', () => {
  /** A result file's content: two requests of a.yaml, segment `part` of `of`. */
  const resultOf = (part: number, of: number): LoadResult => {
    const { overall, targets, series } = combine([[countsOf('a.yaml', [1000, 2000])]], [{ second: 1_800_000_000, count: 2, errors: 0, dropped: 0, active: 1, histogram: countsOf('a.yaml', [1000, 2000]).histogram }], 1);
    return {
      format: 'ferry-load-result', version: 1, loadTest: { id: 't', name: 'T', model: 'arrivalRate' }, segments: { parts: [part], of }, workers: 1,
      startedAt: '2027-01-15T08:00:00.000Z', endedAt: '2027-01-15T08:00:01.000Z', plannedSeconds: 1, durationSeconds: 1, interrupted: false,
      overall, targets, series, thresholds: [{ metric: 'p95', op: '<', value: 10, enabled: true }], verdicts: [], passed: true,
    };
  };

  it('keep the first reason of each error kind, listed in the kinds\' order whatever came first', () => {
    const part = (errorReasons: Record<string, string>) => [{ ...countsOf('a.yaml', [1000]), errorReasons }];
    const { overall, targets } = combine([part({ other: 'getaddrinfo ENOTFOUND x.test', refused: 'connect ECONNREFUSED 127.0.0.1:1' }), part({ timeout: 'no answer within 5 ms', refused: 'a later one' })], [], 1);
    expect(Object.entries(overall.errorReasons)).toEqual([['timeout', 'no answer within 5 ms'], ['refused', 'connect ECONNREFUSED 127.0.0.1:1'], ['other', 'getaddrinfo ENOTFOUND x.test']]);
    expect(targets[0]!.errorReasons).toEqual(overall.errorReasons);
  });

  it("moves a segment's seconds onto the test's timeline by its offset, phase within the second included", () => {
    // The earliest segment (started 0.1 s into epoch second 1000) keeps its seconds.
    expect([1000, 1001, 1002].map((s) => testSecond(s, 1_000_100, 1_002_050, 1_000_100))).toEqual([1000, 1001, 1002]);
    // One started 1.6 s later, 0.7 s into its second (as a clean-clone run did): rounding the
    // offset to 2 s put its first point at 999, a second before the test's start. Its first 1.3 s
    // are the test's 0 to 1.3 s: mostly the test's first second (1000, 0.9 s long), then 1001.
    expect([1001, 1002, 1003].map((s) => testSecond(s, 1_001_700, 1_003_650, 1_000_100))).toEqual([1000, 1000, 1001]);
    // 0.6 s later, 0.9 s into its second (rounded: 999 and 1000): its 0.95 s are the test's 0 to 0.95 s.
    expect([1000, 1001].map((s) => testSecond(s, 1_000_900, 1_001_850, 1_000_300))).toEqual([1000, 1000]);
  });

  it('refuses segments of runs split differently (1/2 with 2/3): their parts do not make one whole', () => {
    expect(mergeResults([resultOf(1, 2), resultOf(2, 2)]).overall.count).toBe(4);
    expect(() => mergeResults([resultOf(1, 2), resultOf(2, 3), resultOf(3, 3)])).toThrow(
      new MergeError('the files split the test differently (segment 1/2 and segment 2/3); merge the segments of one split, all written with the same --segment i/n count.'),
    );
  });

  it('refuses segments of runs with different stages (one run with --stages): their parts are not one test, and the rates would be over the wrong length', () => {
    const longer = { ...resultOf(2, 2), plannedSeconds: 30 };
    expect(() => mergeResults([resultOf(1, 2), longer])).toThrow(
      new MergeError('the files ran stages of different lengths (segment 1/2: 1 s, segment 2/2: 30 s); merge the segments of one run, all started with the same stages (the same --stages, or none).'),
    );
  });

  it('refuses segments judged by different thresholds (the file edited between segments), naming both files and the rules that differ', () => {
    const stricter = { ...resultOf(2, 2), thresholds: [{ metric: 'p95' as const, op: '<' as const, value: 5, enabled: true }, { metric: 'errorRate' as const, op: '<' as const, value: 1, enabled: true }] };
    expect(() => mergeResults([resultOf(1, 2), stricter], ['part-1.json', 'part-2.json'])).toThrow(
      new MergeError('the files judge different thresholds (part-1.json (segment 1/2): p95 < 10ms; part-2.json (segment 2/2): errorRate < 1%, p95 < 5ms); merge the segments of one run, all started from the same load test file (its thresholds as they were then).'),
    );
    // A rule only one file has: the other is said to lack it.
    const fewer = { ...resultOf(2, 2), thresholds: [] };
    expect(() => mergeResults([resultOf(1, 2), fewer])).toThrow(/^the files judge different thresholds \(segment 1\/2: p95 < 10ms; segment 2\/2: not these\)/);
    // The same rules in another order, or a disabled rule only one has, judge alike: merged.
    const reordered = { ...resultOf(2, 2), thresholds: [{ metric: 'rps' as const, op: '>' as const, value: 0, enabled: false }, ...resultOf(1, 2).thresholds] };
    expect(mergeResults([resultOf(1, 2), reordered], ['a.json', 'b.json']).verdicts.map((v) => v.rule)).toEqual(['p95 < 10ms']);
    // The stage lengths' refusal names the files too when it has them.
    expect(() => mergeResults([resultOf(1, 2), { ...resultOf(2, 2), plannedSeconds: 30 }], ['a.json', 'b.json'])).toThrow(/\(a\.json \(segment 1\/2\): 1 s, b\.json \(segment 2\/2\): 30 s\)/);
  });

  it('refuses a result file whose parts cannot be read, naming the file and the field (no stack trace)', () => {
    const result = resultOf(1, 2);
    const text = (edit: (r: LoadResult) => void) => {
      const copy = structuredClone(result);
      edit(copy);
      return JSON.stringify(copy);
    };
    expect(parseResult(text(() => {}), 'ok.json').overall.count).toBe(2);
    const cases: Array<[(r: LoadResult) => void, string]> = [
      [(r) => (r.targets[0]!.histogram = 'garbage'), 'targets[0].histogram'],
      [(r) => (r.series[0]!.histogram = 'SGVsbG8='), 'series[0].histogram'],
      [(r) => delete (r.targets[0] as Partial<TargetResult>).errors, 'targets[0].errors'],
      [(r) => ((r.targets[0] as unknown as { count: string }).count = '2'), 'targets[0].count'],
      [(r) => ((r.series[0] as unknown as { second: null }).second = null), 'series[0].second'],
      [(r) => (r.segments.parts = [0]), 'segments'],
      [(r) => (r.startedAt = 'yesterday'), 'startedAt'],
      [(r) => ((r.thresholds[0] as unknown as { metric: string }).metric = 'p42'), 'thresholds[0]'],
    ];
    for (const [edit, field] of cases) {
      expect(() => parseResult(text(edit), 'part.json'), field).toThrow(new MergeError(`part.json: the result has no valid "${field}"; write it again with ferry load ID --out-json FILE.`));
    }
  });

  it('merged percentiles equal those of one histogram of all samples', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const all = Array.from({ length: 6_000 }, () => Math.round(100 + random() ** 3 * 2_000_000));
    const parts = [all.slice(0, 2_000), all.slice(2_000, 4_000), all.slice(4_000)].map((s) => [countsOf('a.yaml', s)]);
    const merged = combine(parts, [], 10).overall;
    const whole = combine([[countsOf('a.yaml', all)]], [], 10).overall;
    expect(merged.count).toBe(6_000);
    expect(merged.latencyMs).toEqual(whole.latencyMs);
    expect(merged.rps).toBe(600);
  });
});

describe('thresholds', () => {
  const parts = [[countsOf('a.yaml', [1000, 2000, 3000, 4000], 1)]];
  const { overall, targets } = combine(parts, [], 2);
  const rule = (metric: ThresholdRule['metric'], op: ThresholdRule['op'], value: number, target?: string): ThresholdRule => ({ metric, op, value, enabled: true, ...(target ? { target } : {}) });
  it('judge every metric with every operator', () => {
    const verdicts = judge(
      [rule('p50', '<=', 2), rule('p90', '<', 4), rule('p95', '>', 3.9), rule('p99', '>=', 4), rule('p999', '<', 5), rule('avg', '<', 2.5), rule('max', '<=', 4), rule('errorRate', '<', 25), rule('rps', '>=', 2)],
      overall,
      targets,
      2,
    );
    expect(verdicts.map((v) => [v.metric, v.measured, v.passed])).toEqual([
      ['p50', 2, true],
      ['p90', 4.001, false],
      ['p95', 4.001, true],
      ['p99', 4.001, true],
      ['p999', 4.001, true],
      ['avg', 2.501, false],
      ['max', 4.001, false],
      ['errorRate', 25, false],
      ['rps', 2, true],
    ]);
  });
  it('print the measured value with the unit of its metric (ms, %, req/s), as the rule', () => {
    const verdicts = judge([rule('p95', '<', 3), rule('errorRate', '<', 25), rule('rps', '>=', 2, 'a.yaml'), rule('max', '<', 1, 'b.yaml')], overall, targets, 2);
    expect(verdicts.map(verdictText)).toEqual([
      '✗ p95 < 3ms: measured 4.001ms',
      '✗ errorRate < 25%: measured 25%',
      '✓ rps >= 2 req/s (a.yaml): measured 2 req/s',
      '✗ max < 1ms (b.yaml): no samples (b.yaml is not sent by this test: its weight is 0 or it is not enabled; the rule cannot pass)',
    ]);
  });
  it('judge the exact error rate and rate, not the figures rounded for the table (one error in 300,000 fails errorRate <= 0)', () => {
    // Many requests, few errors: the rates computed here from the raw counts.
    const many = (count: number, errors: number) => {
      const h = newHistogram();
      h.recordValueWithCount(1000, count);
      return [[{ request: 'a.yaml', count, errors: { ...noErrors(), status: errors }, statuses: { 200: count - errors, 500: errors }, dropped: 0, bytesSent: 0, bytesReceived: 0, histogram: encodeHistogram(h) }]];
    };
    const one = combine(many(300_000, 1), [], 300);
    const [none, tiny] = judge([rule('errorRate', '<=', 0), rule('errorRate', '<', 0.001)], one.overall, one.targets, 300);
    expect(none).toMatchObject({ passed: false });
    expect(none!.measured).toBeGreaterThan(0);
    expect(verdictText(none!)).toBe('✗ errorRate <= 0%: measured 0.000333%');
    expect(tiny).toMatchObject({ passed: true });
    expect(one.overall.errorRate).toBeGreaterThan(0);
    // 1 in 200,000 is 0.0005%, under 0.001% (rounded to three decimals it read 0.001 and failed).
    const half = combine(many(200_000, 1), [], 200);
    expect(judge([rule('errorRate', '<', 0.001)], half.overall, half.targets, 200)[0]).toMatchObject({ passed: true });
    // 10 requests over 0.3 s: 33.33… req/s, above 33.3333 (rounded to 33.333 it failed).
    const fast = combine(many(10, 0), [], 0.3);
    const [above, below] = judge([rule('rps', '>', 33.3333), rule('rps', '<', 33.3334, 'a.yaml')], fast.overall, fast.targets, 0.3);
    expect(10 / 0.3).toBeGreaterThan(33.3333);
    expect([above!.passed, below!.passed]).toEqual([true, true]);
    // Shown with the digits that tell it from the limit.
    expect(verdictText(above!)).toBe('✓ rps > 33.3333 req/s: measured 33.33333 req/s');
  });
  it('fail a metric with no samples, saying so, and skip disabled rules', () => {
    const verdicts = judge([rule('p95', '<', 1000, 'b.yaml'), { ...rule('p50', '<', 0), enabled: false }], overall, targets, 2);
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatchObject({ passed: false, measured: null });
    expect(verdicts[0]!.reason).toBe('b.yaml is not sent by this test: its weight is 0 or it is not enabled; the rule cannot pass');
    const empty = combine([[countsOf('a.yaml', [])]], [], 1);
    const [none] = judge([rule('errorRate', '<', 100)], empty.overall, empty.targets, 1);
    expect(none).toMatchObject({ passed: false, measured: null });
    // Said once: not "no samples (no samples: …)".
    expect(verdictText(none!)).toBe('✗ errorRate < 100%: no samples (nothing was measured, so the rule cannot pass)');
  });
});

describe('busy polling between answers', () => {
  // Past the spin's 50 µs, then one turn of the loop's immediates: the spin (queued first) looks once more and stops.
  const settle = async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setImmediate(resolve));
  };

  it('never spins for answers that come slower than a thread wakes up', () => {
    const poll = new BusyPoll();
    for (let i = 0; i < 50; i++) poll.answered(i * 5); // one answer every 5 ms
    expect(poll.spinning).toBe(false);
  });

  it('spins while answers come every few microseconds, and stops by itself once they stop', async () => {
    const poll = new BusyPoll();
    const now = performance.now();
    for (let i = 0; i < 50; i++) poll.answered(now - 0.5 + i * 0.01); // one every 10 µs, the last just now
    expect(poll.spinning).toBe(true);
    await settle();
    expect(poll.spinning).toBe(false);
  });

  it('does not count busy polling as work when deciding whether threads should join', () => {
    const before = { idle: 0, active: 0, utilization: 0 };
    const now = { idle: 100, active: 900, utilization: 0.9 };
    expect(busyShare(now, before)).toBeCloseTo(0.9);
    expect(busyShare(now, before, 600)).toBeCloseTo(0.3);
  });
});

describe('user places', () => {
  it('a new user takes the lowest free place, so no two users hold the same one, whatever order they leave in', () => {
    const places = new Places();
    expect([places.take(), places.take(), places.take(), places.take()]).toEqual([0, 1, 2, 3]);
    places.give(2);
    places.give(1);
    expect([places.take(), places.take(), places.take()]).toEqual([1, 2, 4]);
    // 2,000 rounds of users leaving and coming in a fixed pseudo-random order, checked against a plain list.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const held = new Set([0, 1, 2, 3, 4]);
    for (let round = 0; round < 2000; round++) {
      if (held.size > 0 && random(2) === 0) {
        const place = [...held][random(held.size)]!;
        held.delete(place);
        places.give(place);
      } else {
        let lowest = 0;
        while (held.has(lowest)) lowest++;
        const place = places.take();
        expect(place).toBe(lowest);
        held.add(place);
      }
    }
  });
});

describe('histograms read from a result file', () => {
  it('decode as written, and one that inflates past 4 MB (a zip bomb in a result file) is refused without inflating it whole', () => {
    const h = newHistogram();
    for (let v = 1; v <= 10_000_000; v *= 3) h.recordValue(v);
    expect(decodeHistogram(encodeHistogram(h)).totalCount).toBe(h.totalCount);
    // A V2 header that says a histogram follows, then 64 MB of zeros: 64 KB once compressed.
    const head = Buffer.alloc(40);
    head.writeInt32BE(0x1c849313, 0);
    head.writeInt32BE(64 * 1024 * 1024, 4);
    head.writeInt32BE(3, 12);
    head.writeBigInt64BE(1n, 16);
    head.writeBigInt64BE(3_600_000_000n, 24);
    const inflated = Buffer.concat([head, Buffer.alloc(64 * 1024 * 1024)]);
    const zipped = zlib.deflateSync(inflated);
    const outer = Buffer.alloc(8);
    outer.writeInt32BE(0x1c849314, 0);
    outer.writeInt32BE(zipped.length, 4);
    const bomb = Buffer.concat([outer, zipped]).toString('base64');
    expect(bomb.length).toBeLessThan(200_000);
    // Refused by its size limit before it inflates (the words say which limit stopped it).
    expect(() => decodeHistogram(bomb)).toThrow(/Cannot create a Buffer larger than|maxOutputLength|too large/i);
  });
});

describe('thresholds written with k6 names', () => {
  it('are refused saying which metric is meant', () => {
    const said = (metric: string) => {
      const parsed = parseResource('loadtest', { name: 'x', thresholds: [{ metric, op: '<', value: 1 }] });
      return parsed.ok ? 'accepted' : parsed.problems.map((p) => p.message).join('; ');
    };
    expect(said('p(95)')).toBe("expected one of p50, p90, p95, p99, p999, avg, max, errorRate, rps, got text \"p(95)\" (k6's p(95) is written p95 here)");
    expect(said('p(99.9)')).toMatch(/\(k6's p\(99\.9\) is written p999 here\)$/);
    expect(said('http_req_failed')).toMatch(/\(k6's http_req_failed is errorRate here\)$/);
    expect(said('http_reqs')).toMatch(/\(k6's http_reqs is rps here\)$/);
    expect(said('http_req_duration')).toMatch(/\(k6's http_req_duration is the latency metrics here: p50 … p999, avg, max, in ms\)$/);
    expect(said('p42')).toBe('expected one of p50, p90, p95, p99, p999, avg, max, errorRate, rps, got text "p42"');
    expect(said('p95')).toBe('accepted');
  });
});
