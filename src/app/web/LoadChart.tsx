/**
 * The load panel's charts (uPlot): x is seconds from the run's start; one chart per unit
 * (req/s and counts, latency in ms, users or in flight). `data-points` on the chart says how
 * many seconds it holds (the end-to-end test watches it grow while a run goes on).
 */
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { LivePoint, LoadResultView } from '../shared/api.js';

/** One second of a run, from a live point or from a result's series; `t` is its time on the chart's axis. */
export type ChartPoint = Omit<LivePoint, 'second' | 'elapsedSeconds'> & { t: number };

export function fromLive(points: readonly LivePoint[]): ChartPoint[] {
  return points.map((p) => ({ t: p.elapsedSeconds, count: p.count, errors: p.errors, dropped: p.dropped, active: p.active, p50: p.p50, p95: p.p95, p99: p.p99 }));
}

export function fromResult(result: LoadResultView): ChartPoint[] {
  const start = Date.parse(result.startedAt) / 1000;
  return result.series.map((p) => ({ t: Math.max(0, Math.round((p.second + 1 - start) * 10) / 10), count: p.count, errors: p.errors, dropped: p.dropped, active: p.active, p50: p.p50, p95: p.p95, p99: p.p99 }));
}

export interface Line {
  label: string;
  /** The theme variable of its colour (`--chart-rps`): the canvas cannot read `var()`. */
  color: string;
  values: Array<number | null>;
  dash?: number[];
}

/** The page's theme (`data-theme` on the root), followed: a chart takes its colours from the theme's variables. */
function useTheme(): string {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? '');
  useEffect(() => {
    const watch = new MutationObserver(() => setTheme(document.documentElement.dataset.theme ?? ''));
    watch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => watch.disconnect();
  }, []);
  return theme;
}

/** The colour a theme variable holds now. */
function themeColor(variable: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(variable).trim() || 'currentColor';
}

/**
 * The value axis as wide as its longest label: uPlot's fixed 50 px cut `10,000` to `0,000` (req/s
 * of a fast local server). uPlot calls it again once the labels change; after two rounds it keeps
 * its last answer, so the layout settles.
 */
function valueAxisSize(self: uPlot, values: string[] | null, axisIndex: number, cycle: number): number {
  const axis = self.axes[axisIndex]!;
  const previous = (axis as { _size?: number })._size;
  if (cycle > 1 && previous !== undefined) return previous;
  const longest = (values ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  self.ctx.font = (axis.font as unknown as [string])?.[0] ?? self.ctx.font;
  const text = longest === '' ? 0 : self.ctx.measureText(longest).width / (window.devicePixelRatio || 1);
  return Math.ceil((axis.ticks?.size ?? 10) + (axis.gap ?? 5) + text + 4);
}

export function Chart({ title, x, lines, testId, height = 190 }: { title: string; x: number[]; lines: Line[]; testId: string; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const theme = useTheme();
  const shape = `${theme}|${lines.map((l) => `${l.label}/${l.color}`).join('|')}`;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(240, el.clientWidth || 480);
    const options: uPlot.Options = {
      width,
      height,
      scales: { x: { time: false } },
      axes: [{ label: 's', stroke: 'currentColor' }, { stroke: 'currentColor', size: valueAxisSize }],
      legend: { live: false },
      cursor: { drag: { x: false, y: false } },
      series: [{ label: 's' }, ...lines.map((l) => ({ label: l.label, stroke: themeColor(l.color), width: 1.5, spanGaps: false, ...(l.dash ? { dash: l.dash } : {}) }))],
    };
    const chart = new uPlot(options, [x, ...lines.map((l) => l.values)] as uPlot.AlignedData, el);
    plot.current = chart;
    const resize = () => chart.setSize({ width: Math.max(240, el.clientWidth), height });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
      plot.current = null;
    };
  }, [shape, height]);

  useEffect(() => {
    plot.current?.setData([x, ...lines.map((l) => l.values)] as uPlot.AlignedData);
  });

  return (
    <figure className="load-chart" data-testid={testId} data-points={x.length}>
      <figcaption>{title}</figcaption>
      <div ref={box} />
    </figure>
  );
}

/** The lines' colours: theme variables (styles.css), 3:1 on the chart's background in both themes. */
const COLORS = { rps: '--accent', errors: '--bad', dropped: '--warn', p50: '--ok', p95: '--chart-violet', p99: '--bad', active: '--chart-blue' };

/** The three charts of one run: throughput (req/s, errors, dropped), latency (p50, p95, p99), users or in flight. */
export function RunCharts({ points, model, prefix = 'chart' }: { points: ChartPoint[]; model: 'virtualUsers' | 'arrivalRate'; prefix?: string }) {
  const x = points.map((p) => p.t);
  return (
    <div className="load-charts">
      <Chart title="Requests per second" testId={`${prefix}-rps`} x={x} lines={[
        { label: 'req/s', color: COLORS.rps, values: points.map((p) => p.count) },
        { label: 'errors', color: COLORS.errors, values: points.map((p) => p.errors) },
        { label: 'dropped', color: COLORS.dropped, values: points.map((p) => p.dropped) },
      ]} />
      <Chart title="Latency (ms)" testId={`${prefix}-latency`} x={x} lines={[
        { label: 'p50', color: COLORS.p50, values: points.map((p) => p.p50) },
        { label: 'p95', color: COLORS.p95, values: points.map((p) => p.p95) },
        { label: 'p99', color: COLORS.p99, values: points.map((p) => p.p99) },
      ]} />
      <Chart title={model === 'arrivalRate' ? 'Requests in flight' : 'Virtual users'} testId={`${prefix}-active`} x={x} lines={[
        { label: model === 'arrivalRate' ? 'in flight' : 'users', color: COLORS.active, values: points.map((p) => p.active) },
      ]} />
    </div>
  );
}

/** Two runs on one time axis (whole seconds from each start): req/s and p95 of A (solid) and B (dashed). */
export function CompareCharts({ a, b }: { a: ChartPoint[]; b: ChartPoint[] }) {
  const n = Math.max(0, ...a.map((p) => Math.ceil(p.t)), ...b.map((p) => Math.ceil(p.t)));
  const x = Array.from({ length: n }, (_, i) => i + 1);
  const at = (points: ChartPoint[], pick: (p: ChartPoint) => number | null) => {
    const bySecond = new Map(points.map((p) => [Math.ceil(p.t), pick(p)]));
    return x.map((s) => bySecond.get(s) ?? null);
  };
  return (
    <div className="load-charts">
      <Chart title="Requests per second: A solid, B dashed" testId="compare-rps" x={x} lines={[
        { label: 'A req/s', color: COLORS.rps, values: at(a, (p) => p.count) },
        { label: 'B req/s', color: COLORS.rps, values: at(b, (p) => p.count), dash: [6, 4] },
      ]} />
      <Chart title="p95 latency (ms): A solid, B dashed" testId="compare-p95" x={x} lines={[
        { label: 'A p95', color: COLORS.p95, values: at(a, (p) => p.p95) },
        { label: 'B p95', color: COLORS.p95, values: at(b, (p) => p.p95), dash: [6, 4] },
      ]} />
    </div>
  );
}

/** The stages as a line: users or req/s over time, ramps from 0 (spec 2.12). */
export function RampPreview({ stages, unit }: { stages: Array<{ durationSecs: number; target: number }>; unit: string }) {
  const valid = stages.filter((s) => Number.isFinite(s.durationSecs) && Number.isFinite(s.target) && s.durationSecs >= 0 && s.target >= 0);
  const total = valid.reduce((t, s) => t + s.durationSecs, 0);
  const top = Math.max(0, ...valid.map((s) => s.target));
  const W = 260;
  const H = 70;
  if (total <= 0 || top <= 0) return <p className="muted small" data-testid="ramp-preview">No ramp yet: give a stage a duration and a target above 0.</p>;
  let t = 0;
  const points = ['0,' + H];
  for (const s of valid) {
    t += s.durationSecs;
    points.push(`${((t / total) * W).toFixed(1)},${(H - (s.target / top) * (H - 4)).toFixed(1)}`);
  }
  return (
    <figure className="ramp" data-testid="ramp-preview" data-total={total} data-top={top}>
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Ramp: up to ${top} ${unit} over ${total} s`}>
        <polyline points={points.join(' ')} fill="none" stroke="var(--accent)" strokeWidth="2" />
      </svg>
      <figcaption className="muted small">up to {top} {unit}, {total} s in all</figcaption>
    </figure>
  );
}
