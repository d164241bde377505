import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "src");
/**
 * What may touch a runtime: the Node entry, the per-runtime entries, and the Redis store (Node-only by
 * design, exported apart as `@voar/hono-edge/redis`). Everything `createApp` reaches must not.
 */
const RUNTIME_SPECIFIC = (path: string) => path === "node.ts" || path.startsWith("entries/") || path.startsWith("redis/");

/** The code of a file without its comments (TSDoc examples may show `process.env`). */
const codeOf = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });

describe("the app uses only Web-standard APIs", () => {
  const sources = files(SRC).filter((f) => !RUNTIME_SPECIFIC(relative(SRC, f)));

  it.each(sources.map((f) => [relative(SRC, f), f]))("%s imports no Node module and uses no Node global", (_, path) => {
    const text = codeOf(readFileSync(path, "utf8"));
    expect(text).not.toMatch(/from\s+["'](node:|fs|path|os|http|https|net|crypto|stream|undici|@hono\/node-server)["'/]/);
    // Metrics go through the `ServiceMetrics` port, traces through @opentelemetry/api: no Node-only SDK here.
    expect(text).not.toMatch(/from\s+["'](prom-client|@opentelemetry\/sdk-|@opentelemetry\/exporter-|@opentelemetry\/resources)/);
    expect(text).not.toMatch(/\b(process|Buffer|require|__dirname)\b(?=\s*[.(])/);
  });

  it("every file stays within the house size (at most ~200 lines)", () => {
    for (const f of sources) expect(readFileSync(f, "utf8").split("\n").length, relative(SRC, f)).toBeLessThanOrEqual(200);
  });
});
