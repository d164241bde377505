/**
 * The Bun entry: `bun src/entries/bun.ts` (Bun runs the TypeScript sources as they are). Reads the
 * `VOAR_*` variables (see `entry-env.ts`), serves the app on the embedded simulator with `Bun.serve`, and
 * stops gracefully on SIGINT/SIGTERM.
 */
import { createApp } from "../app/create-app.js";
import { priceCalendar } from "../calendar/price-calendar.js";
import { jsonLinesLogger } from "../logging/logger.js";
import { entrySetup } from "./entry-env.js";

/** The part of Bun's API this entry uses (typed here so the package needs no Bun types). */
declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Response | Promise<Response> }): { readonly port: number; stop(): void };
};

const setup = entrySetup(Bun.env);
const logger = jsonLinesLogger();
const shutdown = new AbortController();
const app = createApp({ config: setup.config, sources: setup.simulator.sources, logger, signal: shutdown.signal, priceCalendar: priceCalendar() });
const server = Bun.serve({ port: setup.port, hostname: setup.hostname, fetch: app.fetch });
logger.log({ level: "info", msg: "listening", runtime: "bun", port: server.port, basePath: setup.config.basePath });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    shutdown.abort();
    server.stop();
    process.exit(0);
  });
}
