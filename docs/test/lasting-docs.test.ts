import { describe, expect, it } from "vitest";
import { barePnpmIn, findBarePnpm, pnpmVersion } from "../scripts/bare-commands.js";
import { findGnuDates, findLiteralDates, literalDatesIn } from "../scripts/literal-dates.js";
import { exampleLines } from "../scripts/reader-files.js";

describe("no README, page or example holds a literal travel date", () => {
  it("finds travel dates, and leaves timestamps, compatibility dates, measurements and the legacy 'no return' alone", () => {
    const text = [
      "npx -y pnpm@10.34.9 -s voar search CNF SDU 2026-12-20 --volta 2026-12-27",
      '-d \'{ "Ida": "2026-12-20T00:00:00" }\'',
      '{"level":"info","time":"2026-11-26T02:59:27.768Z","msg":"listening"}',
      "vi.setSystemTime(new Date(\"2026-06-01T12:00:00Z\"));",
      'compatibility_date = "2024-09-23"',
      "Measured 2026-11-26 on an Intel Xeon.",
      "`Volta` `0001-01-01` as no return; dates are `YYYY-MM-DD`",
    ].join("\n");
    expect(literalDatesIn(text)).toEqual([
      { line: 1, date: "2026-12-20" },
      { line: 1, date: "2026-12-27" },
      { line: 2, date: "2026-12-20T00:00:00" },
    ]);
  });

  it("reads the examples of doc comments (the API reference's), not the rest of them", () => {
    const source = ["/**", " * Read on 2026-11-26 by hand.", " *", " * @example", ' * search({ Ida: "2026-05-10" });', " */", 'const x = "2026-01-01";'].join("\n");
    expect(exampleLines(source).map((l) => l.line)).toEqual([4, 5]);
  });

  it("in the repository: none", async () => {
    expect(await findLiteralDates()).toEqual([]);
  });

  it("and the dates they compute, they compute on macOS too: no GNU date -d", async () => {
    expect(await findGnuDates()).toEqual([]);
  });
});

describe("every pnpm command shown runs where only Node.js and npm are installed", () => {
  it("finds bare pnpm in shell blocks and inline code, and accepts npx -y pnpm@<the repository's version>", () => {
    const text = [
      "Run `pnpm verify`, or `npx -y pnpm@10.34.9 verify`.",
      "```sh",
      "pnpm install && npx -y pnpm@10.34.9 demo   # then open http://localhost:8787/",
      "VOAR_API_KEYS=a:b npx -y pnpm@9.0.0 start",
      "cd packages/core && pnpm test",
      "```",
      "```ts",
      'const pnpm = "not a command";',
      "```",
      "A span a line break splits, `pnpm --filter @voar/example-browser-client",
      "example`, and one with variables first: `VOAR_API_KEYS=demo:key pnpm --filter @voar/hono-edge start`.",
      "Fine: `npx -y pnpm@10.34.9 --filter @voar/core",
      "test`, `pnpm-lock.yaml`, `npm run pnpm`.",
    ].join("\n");
    expect(barePnpmIn(text, "10.34.9")).toEqual([
      { line: 1, command: "pnpm verify" },
      { line: 3, command: "pnpm install" },
      { line: 4, command: "npx -y pnpm@9.0.0 start" },
      { line: 5, command: "pnpm test" },
      { line: 10, command: "pnpm --filter @voar/example-browser-client example" },
      { line: 11, command: "pnpm --filter @voar/hono-edge start" },
    ]);
  });

  it("in the repository: none", async () => {
    expect(await pnpmVersion()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await findBarePnpm()).toEqual([]);
  });
});
