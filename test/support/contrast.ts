import type { Locator } from 'playwright-core';

/**
 * WCAG 2 contrast, computed in the page from its own styles (the app's accessibility checks):
 * `await page.evaluate(defineContrast)` puts `ferryContrast` on the page's window, and a page
 * function then reads `window.ferryContrast`. One page-side copy for every test that measures.
 */
export interface PageContrast {
  /** The contrast ratio of two CSS colours (`rgb(…)`/`rgba(…)`), rounded to 0.01. */
  between(a: string, b: string): number;
  /** The colour behind `e`: its own background, else its nearest ancestor's that has one (white at the top). */
  behind(e: Element | null): string;
  /** `e`'s text colour against what is behind it. */
  of(e: Element): number;
}

declare global {
  interface Window {
    ferryContrast: PageContrast;
  }
}

/** Runs in the page (passed to `page.evaluate`): nothing from this module's scope may be used inside. */
export function defineContrast(): void {
  const luminance = (colour: string): number => {
    const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const between = (a: string, b: string): number => {
    const [x, y] = [luminance(a), luminance(b)];
    return Math.round(((Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)) * 100) / 100;
  };
  const behind = (e: Element | null): string => {
    for (; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c;
    }
    return 'rgb(255, 255, 255)';
  };
  window.ferryContrast = { between, behind, of: (e) => between(getComputedStyle(e).color, behind(e)) };
}

/**
 * The elements of `spans` whose text has less than 4.5:1 against what is behind it, each said as
 * `where: text ratio` (an empty list passes). Needs `defineContrast` in the page first. `except`:
 * a selector of elements left out, with what is inside or around them (a tint the measure cannot read).
 */
export function lowContrast(spans: Locator, where: string, except?: string): Promise<string[]> {
  return spans.evaluateAll((all, [place, skip]) => all
    .filter((s) => !skip || (!s.closest(skip) && !s.querySelector(skip)))
    .map((s) => [s.textContent, window.ferryContrast.of(s)] as const)
    .filter(([, ratio]) => ratio < 4.5)
    .map(([text, ratio]) => `${place}: ${text} ${ratio}`), [where, except ?? ''] as const);
}
