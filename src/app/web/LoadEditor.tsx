/**
 * The load test editor (spec 2.12): name, model and its options, targets (request, weight,
 * enabled, captures), stages with a preview of the ramp, thresholds, the Markdown notes `docs`. The page only edits; the
 * server checks the whole test with the format's schema when it is saved.
 */
import { THRESHOLD_METRICS, THRESHOLD_OPS } from '../../model/threshold-names.js';
import type { LoadTestFile } from '../shared/api.js';
import { RampPreview } from './LoadChart.js';
import { DocsEditor } from './RequestEditor.js';

type Target = LoadTestFile['targets'][number];
type Threshold = LoadTestFile['thresholds'][number];


/** A number field's value: empty is "not given" (null, which the schema reads as absent or refuses where required). */
function num(text: string): number {
  return (text.trim() === '' ? null : Number(text)) as number;
}

const shown = (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(n) ? '' : String(n));

export function LoadEditor({ test, requests, onChange }: { test: LoadTestFile; requests: string[]; onChange: (next: LoadTestFile) => void }) {
  const set = <K extends keyof LoadTestFile>(key: K, value: LoadTestFile[K]) => onChange({ ...test, [key]: value });
  const setTarget = (i: number, next: Partial<Target>) => set('targets', test.targets.map((t, j) => (j === i ? { ...t, ...next } : t)));
  const setStage = (i: number, next: Partial<LoadTestFile['stages'][number]>) => set('stages', test.stages.map((s, j) => (j === i ? { ...s, ...next } : s)));
  const setThreshold = (i: number, next: Partial<Threshold>) => set('thresholds', test.thresholds.map((t, j) => (j === i ? { ...t, ...next } : t)));
  const unit = test.model === 'arrivalRate' ? 'req/s' : 'users';
  const picks = (current: string) => (requests.includes(current) || current === '' ? requests : [current, ...requests]);

  return (
    <div className="load-editor">
      <div className="form-grid">
        <label>Name<input aria-label="Load test name" value={test.name} onChange={(e) => set('name', e.target.value)} /></label>
        <label>Model
          <select aria-label="Model" value={test.model} onChange={(e) => set('model', e.target.value as LoadTestFile['model'])}>
            <option value="virtualUsers">virtual users (closed)</option>
            <option value="arrivalRate">arrival rate (open, req/s)</option>
          </select>
        </label>
        {test.model === 'virtualUsers'
          ? <label>Think time (ms)<input type="number" min={0} aria-label="Think time" value={shown(test.thinkTimeMs)} onChange={(e) => set('thinkTimeMs', num(e.target.value))} /></label>
          : <label>Most in flight<input type="number" min={1} aria-label="Most in flight" value={shown(test.maxInFlight)} onChange={(e) => set('maxInFlight', num(e.target.value))} /></label>}
        <label>Timeout (ms, empty: the app setting)<input type="number" min={0} aria-label="Timeout" value={shown(test.timeoutMs)} onChange={(e) => set('timeoutMs', e.target.value === '' ? undefined : num(e.target.value))} /></label>
        <label>HTTP version
          <select aria-label="HTTP version" value={test.httpVersion ?? ''} onChange={(e) => set('httpVersion', (e.target.value || undefined) as LoadTestFile['httpVersion'])}>
            <option value="">the app setting</option><option value="auto">auto</option><option value="http1">http1</option><option value="http2">http2</option>
          </select>
        </label>
        <label>Data file (CSV or JSON)<input aria-label="Data file" value={test.dataFile ?? ''} placeholder="data/users.csv" onChange={(e) => set('dataFile', e.target.value || undefined)} /></label>
        <label className="check"><input type="checkbox" checked={test.keepAlive} onChange={(e) => set('keepAlive', e.target.checked)} /> keep connections alive</label>
      </div>

      <h4>Targets <small className="muted">each user sends them in file order, each as many times in a row as its weight; 0 = never sent</small></h4>
      <table className="kv load-targets" aria-label="Targets">
        <thead><tr><th>on</th><th>request</th><th>weight</th><th>captures</th><th /></tr></thead>
        <tbody>
          {test.targets.map((t, i) => (
            <tr key={i} className={t.enabled ? '' : 'off'} data-row={i}>
              <td><input type="checkbox" aria-label={`Target ${i + 1} enabled`} checked={t.enabled} onChange={(e) => setTarget(i, { enabled: e.target.checked })} /></td>
              <td>
                <select aria-label={`Target ${i + 1} request`} value={t.request} onChange={(e) => setTarget(i, { request: e.target.value })}>
                  {t.request === '' && <option value="">pick a request…</option>}
                  {picks(t.request).map((r) => <option key={r} value={r}>{requests.includes(r) ? r : `${r} (not an HTTP request here)`}</option>)}
                </select>
              </td>
              <td><input type="number" min={0} step="any" className="narrow" aria-label={`Target ${i + 1} weight`} value={shown(t.weight)} onChange={(e) => setTarget(i, { weight: num(e.target.value) })} /></td>
              <td>
                {t.captures.map((c, k) => (
                  <div key={k} className="capture">
                    <input aria-label={`Target ${i + 1} capture ${k + 1} variable`} placeholder="variable" value={c.variable} onChange={(e) => setTarget(i, { captures: t.captures.map((x, j) => (j === k ? { ...x, variable: e.target.value } : x)) })} />
                    <select aria-label={`Target ${i + 1} capture ${k + 1} from`} value={c.from} onChange={(e) => setTarget(i, { captures: t.captures.map((x, j) => (j === k ? { ...x, from: e.target.value as typeof c.from } : x)) })}>
                      <option value="json">json</option><option value="header">header</option><option value="regex">regex</option>
                    </select>
                    <input aria-label={`Target ${i + 1} capture ${k + 1} path`} placeholder={c.from === 'header' ? 'header name' : c.from === 'regex' ? 'pattern' : 'data.token'} value={c.path} onChange={(e) => setTarget(i, { captures: t.captures.map((x, j) => (j === k ? { ...x, path: e.target.value } : x)) })} />
                    <button className="icon" aria-label={`Remove capture ${k + 1} of target ${i + 1}`} onClick={() => setTarget(i, { captures: t.captures.filter((_, j) => j !== k) })}>×</button>
                  </div>
                ))}
                <button className="small" onClick={() => setTarget(i, { captures: [...t.captures, { variable: '', from: 'json', path: '' }] })}>+ capture</button>
              </td>
              <td><button className="icon" aria-label={`Remove target ${i + 1}`} onClick={() => set('targets', test.targets.filter((_, j) => j !== i))}>×</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <button onClick={() => set('targets', [...test.targets, { request: requests[0] ?? '', weight: 1, enabled: true, captures: [] }])}>+ target</button>

      <h4>Stages <small className="muted">linear ramps from 0 to each target ({unit}); the test lasts their total</small></h4>
      <div className="stages-row">
        <table className="kv load-stages" aria-label="Stages">
          <thead><tr><th>seconds</th><th>target ({unit})</th><th /></tr></thead>
          <tbody>
            {test.stages.map((s, i) => (
              <tr key={i}>
                <td><input type="number" min={0} step="any" aria-label={`Stage ${i + 1} seconds`} value={shown(s.durationSecs)} onChange={(e) => setStage(i, { durationSecs: num(e.target.value) })} /></td>
                <td><input type="number" min={0} step="any" aria-label={`Stage ${i + 1} target`} value={shown(s.target)} onChange={(e) => setStage(i, { target: num(e.target.value) })} /></td>
                <td><button className="icon" aria-label={`Remove stage ${i + 1}`} onClick={() => set('stages', test.stages.filter((_, j) => j !== i))}>×</button></td>
              </tr>
            ))}
          </tbody>
        </table>
        <RampPreview stages={test.stages} unit={unit} />
      </div>
      <button onClick={() => set('stages', [...test.stages, { durationSecs: 10, target: test.stages.at(-1)?.target ?? 5 }])}>+ stage</button>

      <h4>Thresholds <small className="muted">pass/fail rules; latency in ms, errorRate in %, rps in req/s; a rule with no samples fails</small></h4>
      <table className="kv load-thresholds" aria-label="Thresholds">
        <thead><tr><th>on</th><th>metric</th><th>op</th><th>value</th><th>only for</th><th /></tr></thead>
        <tbody>
          {test.thresholds.map((t, i) => (
            <tr key={i} className={t.enabled ? '' : 'off'}>
              <td><input type="checkbox" aria-label={`Threshold ${i + 1} enabled`} checked={t.enabled} onChange={(e) => setThreshold(i, { enabled: e.target.checked })} /></td>
              <td><select aria-label={`Threshold ${i + 1} metric`} value={t.metric} onChange={(e) => setThreshold(i, { metric: e.target.value as Threshold['metric'] })}>{THRESHOLD_METRICS.map((m) => <option key={m}>{m}</option>)}</select></td>
              <td><select aria-label={`Threshold ${i + 1} op`} value={t.op} onChange={(e) => setThreshold(i, { op: e.target.value as Threshold['op'] })}>{THRESHOLD_OPS.map((o) => <option key={o}>{o}</option>)}</select></td>
              <td><input type="number" step="any" aria-label={`Threshold ${i + 1} value`} value={shown(t.value)} onChange={(e) => setThreshold(i, { value: num(e.target.value) })} /></td>
              <td>
                <select aria-label={`Threshold ${i + 1} target`} value={t.target ?? ''} onChange={(e) => setThreshold(i, { target: e.target.value || undefined })}>
                  <option value="">all targets</option>
                  {[...new Set([...(t.target ? [t.target] : []), ...test.targets.map((x) => x.request)])].filter(Boolean).map((r) => <option key={r} value={r}>{r}</option>)}
                </select>
              </td>
              <td><button className="icon" aria-label={`Remove threshold ${i + 1}`} onClick={() => set('thresholds', test.thresholds.filter((_, j) => j !== i))}>×</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <button onClick={() => set('thresholds', [...test.thresholds, { metric: 'p95', op: '<', value: 500, enabled: true }])}>+ threshold</button>

      <h4>Docs <small className="muted">Markdown notes</small></h4>
      <DocsEditor text={test.docs ?? ''} onChange={(docs) => set('docs', docs || undefined)} />
    </div>
  );
}
