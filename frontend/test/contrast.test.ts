import { describe, expect, it } from "vitest";

import { BLACK, WHITE, contrast, parseCssColor, readableOn, type Rgb } from "../src/contrast";

describe("contrast", () => {
  it("reads the colours the browser computes", () => {
    expect(parseCssColor("rgb(255, 129, 0)")).toEqual([1, 129 / 255, 0]);
    expect(parseCssColor("rgba(0, 0, 0, 0.5)")).toEqual([0, 0, 0]);
    expect(parseCssColor("color(srgb 1 0.5 0.25)")).toEqual([1, 0.5, 0.25]);
    expect(parseCssColor("color(srgb 1.2 -0.1 0.5 / 0.8)")).toEqual([1, 0, 0.5]);
    expect(parseCssColor("transparent")).toBeUndefined();
    expect(parseCssColor("")).toBeUndefined();
  });

  it("computes WCAG's ratios", () => {
    expect(contrast(BLACK, WHITE)).toBeCloseTo(21, 5);
    expect(contrast(WHITE, WHITE)).toBeCloseTo(1, 5);
    // White on Home Assistant's heat orange (#ff8100): the 2.5:1 the issue measured.
    const orange = parseCssColor("rgb(255, 129, 0)")!;
    expect(contrast(orange, WHITE)).toBeLessThan(2.6);
    expect(readableOn(orange)).toBe("#000");
    expect(readableOn(parseCssColor("rgb(28, 28, 28)")!)).toBe("#fff");
  });

  it("finds at least 4.5:1 on every colour", () => {
    const steps = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
    for (const r of steps)
      for (const g of steps)
        for (const b of steps) {
          const background: Rgb = [r, g, b];
          const text = readableOn(background) === "#000" ? BLACK : WHITE;
          expect(contrast(background, text)).toBeGreaterThanOrEqual(4.5);
        }
  });
});
