/**
 * The request editor and its answer, side by side (a vertical bar between them) or stacked (a
 * horizontal bar), the bar the same Splitter as the sidebar's; the editor's share is a percentage
 * of the panes' width or height, so it holds when the window is resized (docs/app.md, "Layout").
 */
import { useRef, type ReactNode } from 'react';
import { EDITOR_SHARE, type SplitLayout } from '../shared/api.js';
import { Splitter } from './Splitter.js';

export interface WorkSplitProps {
  layout: SplitLayout;
  /** The editor's share in percent; the answer has the rest. */
  share: number;
  onMove: (share: number) => void;
  onDone: (share: number) => void;
  editor: ReactNode;
  answer: ReactNode;
}

export function WorkSplit({ layout, share, onMove, onDone, editor, answer }: WorkSplitProps) {
  const panes = useRef<HTMLDivElement>(null);
  const stacked = layout === 'stacked';
  const tracks = `minmax(0, ${share}fr) auto minmax(0, ${100 - share}fr)`;
  return (
    <div ref={panes} className={`panes ${stacked ? 'stacked' : 'side-by-side'}`} data-testid="work-panes" style={stacked ? { gridTemplateRows: tracks } : { gridTemplateColumns: tracks }}>
      <div className="editor-column" id="request-pane">{editor}</div>
      <Splitter
        controls="request-pane"
        label={stacked ? 'Request editor height' : 'Request editor width'}
        orientation={stacked ? 'horizontal' : 'vertical'}
        size={share}
        min={EDITOR_SHARE.min}
        max={EDITOR_SHARE.max}
        initial={EDITOR_SHARE.initial}
        step={EDITOR_SHARE.step}
        unit="%"
        unitsPerPixel={() => {
          const box = panes.current?.getBoundingClientRect();
          const length = (stacked ? box?.height : box?.width) ?? 0;
          return length > 0 ? 100 / length : 0;
        }}
        onMove={onMove}
        onDone={onDone}
      />
      {answer}
    </div>
  );
}
