/**
 * A bar between two panes (WAI-ARIA "window splitter"): the sidebar's (a vertical bar, moved
 * left and right) and the one between the request editor and the answer (vertical side by side,
 * horizontal when stacked). Dragged with the mouse (or a pen, a finger), or focused with Tab and
 * moved with the arrow keys along its axis (Shift: four steps), Home and End for the smallest
 * and largest; a double click puts the initial size back. `onMove` follows every step; `onDone`
 * gets the size to keep, once a drag ends or the keys pause.
 */
import { useRef } from 'react';

const KEYS_PAUSE_MS = 500;

export interface SplitterProps {
  /** The id of the element it resizes (the sidebar, the request editor). */
  controls: string;
  label: string;
  /** `vertical` (the default): a vertical bar that sizes what is left of it; `horizontal`: a horizontal bar that sizes what is above it. */
  orientation?: 'vertical' | 'horizontal';
  /** The size now, in the splitter's unit (`unit`). */
  size: number;
  min: number;
  max: number;
  initial: number;
  step: number;
  /** How the size is written in the bar's tooltip: `px` (the default) or `%`. */
  unit?: 'px' | '%';
  /** Units per CSS pixel the pointer moves, read when a drag starts (a share of the panes' size: 100 / their width). 1 unless given. */
  unitsPerPixel?: () => number;
  onMove: (size: number) => void;
  onDone: (size: number) => void;
}

export function Splitter({ controls, label, orientation = 'vertical', size, min, max, initial, step, unit = 'px', unitsPerPixel, onMove, onDone }: SplitterProps) {
  /** The drag under way; `keysWaiting`: the keys' size was still waiting for their pause when it started (kept at its end then, moved or not). */
  const drag = useRef<{ start: number; startSize: number; scale: number; last: number; keysWaiting: boolean } | null>(null);
  const keysPause = useRef<number | undefined>(undefined);
  const vertical = orientation === 'vertical';
  /** Drops the save the keys left waiting for their pause; true when there was one. */
  const stopKeysPause = () => {
    const waiting = keysPause.current !== undefined;
    clearTimeout(keysPause.current);
    keysPause.current = undefined;
    return waiting;
  };
  const clamp = (s: number) => Math.round(Math.min(max, Math.max(min, s)));
  const setNow = (next: number, done: boolean) => {
    // A size kept now is newer than one the keys left waiting for their pause.
    if (done) stopKeysPause();
    const s = clamp(next);
    onMove(s);
    if (done) onDone(s);
    return s;
  };
  const [less, more] = vertical ? ['ArrowLeft', 'ArrowRight'] : ['ArrowUp', 'ArrowDown'];
  const written = (s: number) => (unit === '%' ? `${s}%` : `${s} px`);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const by = e.shiftKey ? step * 4 : step;
    const next = e.key === less ? size - by : e.key === more ? size + by : e.key === 'Home' ? min : e.key === 'End' ? max : undefined;
    if (next === undefined) return;
    e.preventDefault();
    const s = setNow(next, false);
    // Kept once the keys pause: holding an arrow down writes once, not at every repeat.
    stopKeysPause();
    keysPause.current = window.setTimeout(() => {
      keysPause.current = undefined;
      onDone(s);
    }, KEYS_PAUSE_MS);
  };

  return (
    <div
      className={`splitter ${orientation}`}
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-controls={controls}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={size}
      tabIndex={0}
      title={`${label}: drag, or focus and use ${vertical ? '← →' : '↑ ↓'}; double-click for ${written(initial)}`}
      onKeyDown={onKeyDown}
      onDoubleClick={() => setNow(initial, true)}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.preventDefault(); // no text selected while dragging
        e.currentTarget.setPointerCapture(e.pointerId);
        e.currentTarget.focus();
        // The drag's size is kept when it ends, not the keys' size before it.
        drag.current = { start: vertical ? e.clientX : e.clientY, startSize: size, scale: unitsPerPixel?.() ?? 1, last: size, keysWaiting: stopKeysPause() };
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (d) d.last = setNow(d.startSize + ((vertical ? e.clientX : e.clientY) - d.start) * d.scale, false);
      }}
      onPointerUp={(e) => {
        const d = drag.current;
        drag.current = null;
        if (d && e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
        if (d && (d.last !== d.startSize || d.keysWaiting)) onDone(d.last);
      }}
      onPointerCancel={() => {
        const d = drag.current;
        drag.current = null;
        if (d && (d.last !== d.startSize || d.keysWaiting)) onDone(d.last);
      }}
    />
  );
}
