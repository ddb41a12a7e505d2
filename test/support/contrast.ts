import type { Locator } from 'playwright-core';

/**
 * WCAG 2 contrast, computed in the page from its own styles (the app's accessibility checks):
 * `await page.evaluate(defineContrast)` puts `ferryContrast` on the page's window, and a page
 * function then reads `window.ferryContrast`. One page-side copy for every test that measures.
 */
export interface PageContrast {
  /**
   * The contrast ratio of two opaque colours as the page computes them (`rgb(…)`, or `color(srgb …)`
   * for a `color-mix()`), rounded to 0.01. A translucent one, or one in another syntax, throws: lay
   * it over what is under it first (`behind`, `of`), rather than measure what is not painted.
   */
  between(a: string, b: string): number;
  /**
   * The colour seen behind `e`, as `rgb(…)`: its own background and its ancestors' down to the
   * first opaque one (white at the top), each translucent one (`rgba`, a `color-mix()` with
   * `transparent`) laid over what is under it, as the browser paints them.
   */
  behind(e: Element | null): string;
  /** `e`'s text colour (laid over what is behind it, when translucent) against what is behind it. */
  of(e: Element): number;
}

declare global {
  interface Window {
    ferryContrast: PageContrast;
  }
}

/** Runs in the page (passed to `page.evaluate`): nothing from this module's scope may be used inside. */
export function defineContrast(): void {
  /** Red, green and blue 0–255, alpha 0–1. */
  type Rgba = [number, number, number, number];
  const number = String.raw`([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)`;
  const alphaOf = (value: string | undefined, percent: string | undefined) => (value === undefined ? 1 : Number(value) / (percent ? 100 : 1));
  const legacy = new RegExp(String.raw`^rgba?\(\s*${number}\s*,\s*${number}\s*,\s*${number}\s*(?:,\s*${number}(%?)\s*)?\)$`, 'i');
  const srgb = new RegExp(String.raw`^color\(\s*srgb\s+${number}\s+${number}\s+${number}\s*(?:/\s*${number}(%?)\s*)?\)$`, 'i');
  /**
   * A computed colour. Chromium gives `rgb()`/`rgba()` (channels 0–255) for most, and
   * `color(srgb r g b / a)` (channels 0–1) for a `color-mix()` in srgb; anything else (another
   * colour space, a keyword) is refused by name rather than read as some other colour.
   */
  const read = (colour: string, of?: Element): Rgba => {
    const text = colour.trim();
    if (text === 'transparent') return [0, 0, 0, 0];
    const old = legacy.exec(text);
    if (old) return [Number(old[1]), Number(old[2]), Number(old[3]), alphaOf(old[4], old[5])];
    const mixed = srgb.exec(text);
    if (mixed) return [mixed[1], mixed[2], mixed[3]].map((v) => Math.min(1, Math.max(0, Number(v))) * 255).concat(alphaOf(mixed[4], mixed[5])) as Rgba;
    const element = of ? ` of <${of.tagName.toLowerCase()} class="${of.className}">${(of.textContent ?? '').slice(0, 40)}${of.isConnected ? '' : ' (no longer in the page)'}` : '';
    throw new Error(`ferryContrast cannot read the colour "${colour}"${element}: it reads rgb(), rgba() and color(srgb …), what Chromium computes for the app's colours; add the syntax to test/support/contrast.ts`);
  };
  /** `top` painted over the opaque `under`. */
  const over = (top: Rgba, under: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + under[i]! * (1 - top[3])).concat(1) as Rgba;
  const css = ([r, g, b]: Rgba) => `rgb(${r}, ${g}, ${b})`;
  const luminance = ([r, g, b]: Rgba): number => {
    const [R, G, B] = [r, g, b].map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
  };
  const ratio = (a: Rgba, b: Rgba): number => {
    const [x, y] = [luminance(a), luminance(b)];
    return Math.round(((Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)) * 100) / 100;
  };
  const opaque = (colour: string): Rgba => {
    const c = read(colour);
    if (c[3] < 1) throw new Error(`ferryContrast.between: "${colour}" is translucent; lay it over what is under it first (behind, of)`);
    return c;
  };
  const seen = (e: Element | null): Rgba => {
    const layers: Rgba[] = [];
    for (; e; e = e.parentElement) {
      const layer = read(getComputedStyle(e).backgroundColor, e);
      if (layer[3] > 0) layers.unshift(layer);
      if (layer[3] >= 1) break;
    }
    return layers.reduce((under, layer) => over(layer, under), [255, 255, 255, 1] as Rgba);
  };
  window.ferryContrast = {
    between: (a, b) => ratio(opaque(a), opaque(b)),
    behind: (e) => css(seen(e)),
    of: (e) => {
      const back = seen(e);
      return ratio(over(read(getComputedStyle(e).color, e), back), back);
    },
  };
}

/**
 * The elements of `spans` whose text has less than 4.5:1 against what is behind it, each said as
 * `where: text ratio`. Needs `defineContrast` in the page first. No span at all throws: a check of
 * nothing would pass. Playwright finds the spans and measures them in two steps, between which an
 * editor may draw its lines again (a language's highlighting arriving): spans no longer in the
 * page have no computed colours, so such a measure is dropped and taken again.
 */
export async function lowContrast(spans: Locator, where: string): Promise<string[]> {
  for (let tries = 1; ; tries++) {
    const measured = await spans.evaluateAll((all) => (all.every((s) => s.isConnected)
      ? all.map((s) => ({ text: s.textContent, ratio: window.ferryContrast.of(s) }))
      : undefined));
    if (measured?.length === 0) throw new Error(`lowContrast (${where}): no element to measure; the check would pass on nothing`);
    if (measured) return measured.filter(({ ratio }) => ratio < 4.5).map(({ text, ratio }) => `${where}: ${text} ${ratio}`);
    if (tries === 50) throw new Error(`lowContrast (${where}): the page drew the elements again each of ${tries} times they were measured`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
