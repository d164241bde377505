/**
 * The Deno entry: `deno run --allow-env --allow-net --sloppy-imports src/entries/deno.ts` (`pnpm start:deno`).
 * Bare imports resolve through package.json and node_modules; `--sloppy-imports` lets Deno read the
 * sources as written (`.js` in relative imports, `.ts` on disk). Reads the `VOAR_*` variables (see
 * `entry-env.ts`), serves the app on the embedded simulator with `Deno.serve`, stops on SIGINT/SIGTERM.
 */
import { createApp } from "../app/create-app.js";
import { priceCalendar } from "../calendar/price-calendar.js";
import { jsonLinesLogger } from "../logging/logger.js";
import { entrySetup } from "./entry-env.js";

/** The part of Deno's API this entry uses (typed here so the package needs no Deno types). */
declare const Deno: {
  readonly env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { shutdown(): Promise<void> };
  addSignalListener(signal: "SIGINT" | "SIGTERM", listener: () => void): void;
};

const setup = entrySetup(Deno.env.toObject());
const logger = jsonLinesLogger();
const shutdown = new AbortController();
const app = createApp({ config: setup.config, sources: setup.simulator.sources, logger, signal: shutdown.signal, priceCalendar: priceCalendar() });
const server = Deno.serve(
  { port: setup.port, hostname: setup.hostname, onListen: ({ port }) => logger.log({ level: "info", msg: "listening", runtime: "deno", port, basePath: setup.config.basePath }) },
  app.fetch,
);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => {
    shutdown.abort();
    void server.shutdown();
  });
}
