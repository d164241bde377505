import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp, defineConfig, silentLogger } from "@voar/hono-edge";
import { createSimulator } from "@voar/testing/simulator";

/** The API key this example's service accepts. */
export const API_KEY = "example-api-key-0123456789";

/** A Voar service on a free loopback port. */
export interface RunningService {
  /** Base URL of the API, e.g. `http://127.0.0.1:41234/api`. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the Voar service in this process, on the embedded simulator, on a free port of 127.0.0.1: what
 * `voar-server` does, in a few lines. Every source answers in one batch after 1.5 s, so that a polling client
 * sees a stretch with no change (its conditional polls are answered 304).
 */
export const startService = async (): Promise<RunningService> => {
  const config = defineConfig({ apiKeys: [{ name: "example", key: API_KEY }], search: { pollHintMs: 100 } });
  const shutdown = new AbortController();
  const app = createApp({ config, sources: createSimulator({ latencyMs: 1_500, batches: 1 }).sources, logger: silentLogger, signal: shutdown.signal });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${config.basePath}`,
    close: () =>
      new Promise((resolve) => {
        shutdown.abort();
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
};
