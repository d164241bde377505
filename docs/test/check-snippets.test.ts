import { describe, expect, it } from "vitest";
import { checkSnippetImports } from "../scripts/check-snippets.js";

describe("the code imports of the pages", () => {
  it("all resolve to a file of the repository and, where one is named, to its region", async () => {
    const { problems, count } = await checkSnippetImports();
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(17);
  });
});
