/**
 * The Node entry: reads the configuration (`VOAR_CONFIG_FILE`, then `VOAR_*` variables), serves the app on
 * the embedded simulator with `@hono/node-server` on `VOAR_PORT` (or `PORT`, default 8787), and stops
 * gracefully on SIGINT/SIGTERM. Run it with `pnpm --filter @voar/hono-edge start`.
 */
import { readFile } from "node:fs/promises";
import { serve } from "@hono/node-server";
import { createSimulator } from "@voar/testing";
import { createApp } from "./app/create-app.js";
import { ConfigError, loadConfig } from "./config/load-config.js";
import { jsonLinesLogger } from "./logging/logger.js";

const fail = (errors: readonly string[]): never => {
  console.error(`voar: invalid configuration\n  - ${errors.join("\n  - ")}`);
  process.exit(1);
};

const readConfigFile = async (path: string | undefined): Promise<unknown> => {
  if (!path) return undefined;
  try {
    return JSON.parse(await readFile(path, "utf8")) as unknown;
  } catch (e) {
    // A parser message may quote the file (and its secrets): say only that it is not JSON.
    const why = e instanceof SyntaxError ? "is not valid JSON" : e instanceof Error ? e.message : String(e);
    return fail([`VOAR_CONFIG_FILE (${path}): ${why}`]);
  }
};

const env = process.env;
const result = loadConfig({ file: await readConfigFile(env["VOAR_CONFIG_FILE"]), env });
if (!result.ok) fail(result.errors);
const config = result.ok ? result.config : fail([]);
const logger = jsonLinesLogger((line) => process.stdout.write(`${line}\n`));
const shutdown = new AbortController();
const app = (() => {
  try {
    return createApp({ config, sources: createSimulator().sources, logger, signal: shutdown.signal });
  } catch (e) {
    if (e instanceof ConfigError) return fail(e.errors);
    throw e;
  }
})();
const port = Number(env["VOAR_PORT"] ?? env["PORT"] ?? 8787);
const server = serve({ fetch: app.fetch, port, hostname: env["VOAR_HOSTNAME"] ?? "0.0.0.0" }, (info) =>
  logger.log({ level: "info", msg: "listening", port: info.port, basePath: config.basePath }),
);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    // Ends running searches (leases released) and open SSE streams, then lets the server drain.
    shutdown.abort();
    server.close(() => process.exit(0));
  });
}
