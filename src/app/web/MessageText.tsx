/**
 * A stream message's text (the live panel, an SSE answer's events), pretty as the response
 * viewer's Pretty body (body-text.ts' prettyView, the message having no Content-Type): JSON, and
 * XML that starts with `<?xml`, indented and highlighted when they parse; other text plain; a
 * message over HIGHLIGHT_BYTES indented but plain. A thousand messages must not cost a thousand
 * editors: the highlighting is drawn as spans (code-spans.ts), and only once the message comes
 * near the view (a screen ahead, or a list's height ahead in a list that scrolls on its own); the
 * text and its lines are the same before and after, so nothing moves.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { HIGHLIGHT_BYTES, prettyView } from './body-text.js';
import type { Run } from './code-spans.js';

/**
 * Marks a list of messages that scrolls on its own (a fixed height, `overflow: auto`): its
 * messages are highlighted a list's height ahead of its scroll, not only once shown there. The
 * page's margin does not reach inside such a list (an observer's margin is its root's only), so
 * rows scrolled to were plain for a moment. Not for a list that grows with the page (an SSE
 * answer's events): every row of it would count as near.
 */
export const SCROLLING_LIST = { 'data-scrolling-list': '' } as const;

/** What to do when each message waiting to be highlighted comes near. */
const waiting = new Map<Element, () => void>();
/** One observer for the page, one for each scrolling list. */
let pageObserver: IntersectionObserver | undefined;
const listObservers = new WeakMap<Element, IntersectionObserver>();

function observerFor(list: Element | null): IntersectionObserver {
  const make = () => new IntersectionObserver((entries, observer) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const call = waiting.get(entry.target);
      waiting.delete(entry.target);
      observer.unobserve(entry.target);
      call?.();
    }
  }, { root: list, rootMargin: '100% 0px' });
  if (!list) return (pageObserver ??= make());
  let observer = listObservers.get(list);
  if (!observer) listObservers.set(list, (observer = make()));
  return observer;
}

/**
 * Calls `near` once, when `element` comes near: a screen's height ahead when the page scrolls, a
 * list's height ahead inside a SCROLLING_LIST; returns the way to give up.
 */
function whenNear(element: Element, near: () => void): () => void {
  const observer = observerFor(element.closest('[data-scrolling-list]'));
  waiting.set(element, near);
  observer.observe(element);
  return () => {
    waiting.delete(element);
    observer.unobserve(element);
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
