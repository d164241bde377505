import { describe, expect, it } from "vitest";
import { checkCodeImports, inlineBlocks } from "../scripts/check-code-blocks.js";

// The blocks written in READMEs and pages are compiled by `pnpm docs:build` (check-code-blocks.ts): a tsc run over
// the packages' sources, some 30 s, kept out of the unit tier.
describe("every code block a reader may take for a program is one, whole", () => {
  it("pages import whole files of the examples, never a region", async () => {
    expect(await checkCodeImports()).toEqual([]);
  });

  it("finds the TypeScript blocks written in READMEs and pages, leaving out the copies of example files", async () => {
    const blocks = await inlineBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    expect(blocks.some((b) => b.where.startsWith("docs/service/endpoints.md"))).toBe(true);
  });
});
