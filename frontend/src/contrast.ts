/**
 * Readable text on a coloured background, by WCAG 2's contrast ratio: the schedule's segments
 * take their colours from the theme, so the text colour is chosen for the colour the browser
 * computed, in light and dark themes alike.
 */

/** An sRGB colour, each channel 0 to 1. */
export type Rgb = readonly [number, number, number];

export const BLACK: Rgb = [0, 0, 0];
export const WHITE: Rgb = [1, 1, 1];

/**
 * A computed CSS colour (`getComputedStyle`): `rgb(255, 129, 0)`, `rgba(...)` or, for a
 * `color-mix()` in sRGB, `color(srgb 1 0.5 0)`. Undefined for anything else.
 */
export function parseCssColor(value: string): Rgb | undefined {
  const srgb = /^color\(srgb\s+([\d.e+-]+)\s+([\d.e+-]+)\s+([\d.e+-]+)/.exec(value.trim());
  if (srgb) return clamp([Number(srgb[1]), Number(srgb[2]), Number(srgb[3])]);
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(value.trim());
  if (rgb) return clamp([Number(rgb[1]) / 255, Number(rgb[2]) / 255, Number(rgb[3]) / 255]);
  return undefined;
}

function clamp(rgb: [number, number, number]): Rgb | undefined {
  if (!rgb.every(Number.isFinite)) return undefined;
  return rgb.map((channel) => Math.min(1, Math.max(0, channel))) as unknown as Rgb;
}

/** WCAG 2's relative luminance. */
export function luminance([r, g, b]: Rgb): number {
  const linear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2's contrast ratio of two colours, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Black or white, whichever contrasts more with `background`: at least 4.58:1 on any colour
 * (the worst case is a background of luminance 0.18, where both are equal).
 */
export function readableOn(background: Rgb): "#000" | "#fff" {
  return contrast(background, BLACK) >= contrast(background, WHITE) ? "#000" : "#fff";
}
