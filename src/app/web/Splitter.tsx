/**
 * The bar between the sidebar and the editor (WAI-ARIA "window splitter"): dragged with the
 * mouse (or a pen, a finger), or focused with Tab and moved with the arrow keys (Shift: four
 * steps), Home and End for the narrowest and widest; a double click puts the initial width back.
 * `onMove` follows every step; `onDone` gets the width to keep, once a drag ends or the keys pause.
 */
import { useRef } from 'react';

const KEYS_PAUSE_MS = 500;

export interface SplitterProps {
  /** The id of the element it resizes (the sidebar). */
  controls: string;
  label: string;
  width: number;
  min: number;
  max: number;
  initial: number;
  step: number;
  onMove: (width: number) => void;
  onDone: (width: number) => void;
}

export function Splitter({ controls, label, width, min, max, initial, step, onMove, onDone }: SplitterProps) {
  const drag = useRef<{ startX: number; startWidth: number; last: number } | null>(null);
  const keysPause = useRef<number | undefined>(undefined);
  const clamp = (w: number) => Math.round(Math.min(max, Math.max(min, w)));
  const setNow = (next: number, done: boolean) => {
    const w = clamp(next);
    onMove(w);
    if (done) onDone(w);
    return w;
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const by = e.shiftKey ? step * 4 : step;
    const next = e.key === 'ArrowLeft' ? width - by : e.key === 'ArrowRight' ? width + by : e.key === 'Home' ? min : e.key === 'End' ? max : undefined;
    if (next === undefined) return;
    e.preventDefault();
    const w = setNow(next, false);
    // Kept once the keys pause: holding an arrow down writes once, not at every repeat.
    clearTimeout(keysPause.current);
    keysPause.current = window.setTimeout(() => onDone(w), KEYS_PAUSE_MS);
  };

  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-controls={controls}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={width}
      tabIndex={0}
      title={`${label}: drag, or focus and use ← →; double-click for ${initial} px`}
      onKeyDown={onKeyDown}
      onDoubleClick={() => setNow(initial, true)}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.preventDefault(); // no text selected while dragging
        e.currentTarget.setPointerCapture(e.pointerId);
        e.currentTarget.focus();
        drag.current = { startX: e.clientX, startWidth: width, last: width };
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (d) d.last = setNow(d.startWidth + e.clientX - d.startX, false);
      }}
      onPointerUp={(e) => {
        const d = drag.current;
        drag.current = null;
        if (d && e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
        if (d && d.last !== d.startWidth) onDone(d.last);
      }}
      onPointerCancel={() => {
        const d = drag.current;
        drag.current = null;
        if (d && d.last !== d.startWidth) onDone(d.last);
      }}
    />
  );
}
