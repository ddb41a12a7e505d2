/**
 * A stream message's text (the live panel, an SSE answer's events), pretty as the response
 * viewer's Pretty body (body-text.ts' prettyView, the message having no Content-Type): JSON, and
 * XML that starts with `<?xml`, indented and highlighted when they parse; other text plain; a
 * message over HIGHLIGHT_BYTES indented but plain. A thousand messages must not cost a thousand
 * editors: the highlighting is drawn as spans (code-spans.ts), and only once the message comes
 * into view; the text and its lines are the same before and after, so nothing moves.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { HIGHLIGHT_BYTES, prettyView } from './body-text.js';
import type { Run } from './code-spans.js';

/** One observer for every message waiting to be highlighted: what to do when each comes into view. */
const waiting = new Map<Element, () => void>();
let observer: IntersectionObserver | undefined;

/**
 * Calls `near` once, when `element` comes into view (a screen's height ahead when the page scrolls;
 * inside a list that scrolls on its own, once shown there); returns the way to give up.
 */
function whenNear(element: Element, near: () => void): () => void {
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const call = waiting.get(entry.target);
      waiting.delete(entry.target);
      observer!.unobserve(entry.target);
      call?.();
    }
  }, { rootMargin: '100% 0px' });
  waiting.set(element, near);
  observer.observe(element);
  return () => {
    waiting.delete(element);
    observer?.unobserve(element);
  };
}

export interface MessageTextProps {
  text: string;
  /** Its size in bytes (UTF-8): past HIGHLIGHT_BYTES it stays plain. */
  bytes: number;
  /** Pretty (indented, highlighted) or as received. */
  pretty: boolean;
}

export function MessageText({ text, bytes, pretty }: MessageTextProps) {
  const shown = useMemo(() => (pretty ? prettyView(text, '', true) : { text, language: undefined }), [text, pretty]);
  const language = bytes <= HIGHLIGHT_BYTES ? shown.language : undefined;
  const host = useRef<HTMLPreElement>(null);
  const [highlighted, setHighlighted] = useState<{ text: string; runs: Run[] } | null>(null);

  useEffect(() => {
    if (!language || !host.current) return;
    let current = true;
    const giveUp = whenNear(host.current, () => {
      void import('./code-spans.js')
        .then(({ highlightRuns }) => highlightRuns(shown.text, language))
        // A chunk that does not load leaves the text plain.
        .then((runs) => current && setHighlighted({ text: shown.text, runs }), () => undefined);
    });
    return () => {
      current = false;
      giveUp();
    };
  }, [shown.text, language]);

  const runs = language && highlighted?.text === shown.text ? highlighted.runs : null;
  return (
    <pre ref={host} className="text" data-lang={language} data-highlighted={runs ? 'true' : undefined}>
      {runs ? runs.map(([part, classes], i) => (classes ? <span key={i} className={classes}>{part}</span> : part)) : shown.text}
    </pre>
  );
}
