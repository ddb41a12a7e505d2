/**
 * WCAG 2 contrast, computed in the page from its own styles (the app's accessibility checks):
 * `await page.evaluate(defineContrast)` puts `ferryContrast` on the page's window, and a page
 * function then reads `window.ferryContrast`. One page-side copy for every test that measures.
 */
export interface PageContrast {
  /** The contrast ratio of two opaque CSS colours (any syntax the page computes: `rgb(…)`, `color(srgb …)`…), rounded to 0.01. */
  between(a: string, b: string): number;
  /**
   * The colour seen behind `e`, as `rgb(…)`: its own background and its ancestors' down to the
   * first opaque one (white at the top), a translucent one (`rgba`, a `color-mix()` with
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
  // The browser resolves every colour syntax (a color-mix() computes to `color(srgb r g b / a)`,
  // whose 0–1 channels a regex read as 0–255) and lays translucent layers over each other: a
  // pixel of a canvas painted with the colours gives what the page paints.
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  /** Paints `layers` (CSS colours, the bottom one first) on white and reads the pixel. */
  const paint = (layers: string[]): [number, number, number, number] => {
    ctx.globalCompositeOperation = 'copy';
    ctx.fillStyle = 'rgb(255, 255, 255)';
    ctx.fillRect(0, 0, 1, 1);
    ctx.globalCompositeOperation = 'source-over';
    for (const layer of layers) {
      ctx.fillStyle = 'rgb(255, 255, 255)'; // a colour the canvas cannot read leaves white, not the last layer's
      ctx.fillStyle = layer;
      ctx.fillRect(0, 0, 1, 1);
    }
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!, a!];
  };
  /** A colour's alpha, 0–1 (drawn alone on a cleared canvas). */
  const alpha = (colour: string): number => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = 'rgba(0, 0, 0, 0)';
    ctx.fillStyle = colour;
    ctx.fillRect(0, 0, 1, 1);
    return ctx.getImageData(0, 0, 1, 1).data[3]! / 255;
  };
  const rgb = (layers: string[]): string => `rgb(${paint(layers).slice(0, 3).join(', ')})`;
  const luminance = (colour: string): number => {
    const [r, g, b] = paint([colour]).slice(0, 3).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const between = (a: string, b: string): number => {
    const [x, y] = [luminance(a), luminance(b)];
    return Math.round(((Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)) * 100) / 100;
  };
  const behind = (e: Element | null): string => {
    const layers: string[] = [];
    for (; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      const a = alpha(c);
      if (a > 0) layers.unshift(c);
      if (a >= 1) break;
    }
    return rgb(layers);
  };
  window.ferryContrast = {
    between,
    behind,
    of: (e) => {
      const back = behind(e);
      return between(rgb([back, getComputedStyle(e).color]), back);
    },
  };
}
