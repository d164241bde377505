import { describe, expect, it } from "vitest";
import { pageWindow } from "../../src/web/search/page-window.js";

describe("page numbers around the current page", () => {
  it("shows the first, the last and two on each side, with gaps", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 12)).toEqual([1, 2, 3, "…", 12]);
    expect(pageWindow(6, 12)).toEqual([1, "…", 4, 5, 6, 7, 8, "…", 12]);
    expect(pageWindow(12, 12)).toEqual([1, "…", 10, 11, 12]);
    expect(pageWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
});
