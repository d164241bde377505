import { afterEach, beforeEach, vi } from "vitest";
import { createApp } from "../../src/app/create-app.js";
import { entrySetup } from "../../src/entries/entry-env.js";
import { silentLogger } from "../../src/logging/logger.js";
import { runContract } from "./contract-suite.js";
import { CONTRACT_ENV } from "./contract-target.js";

// The contract in-process, on virtual time: the app as every runtime entry builds it, through `app.request`.
beforeEach(() => vi.useFakeTimers({ now: Date.now() }));
afterEach(() => vi.useRealTimers());

runContract("in-process", () => {
  const setup = entrySetup(CONTRACT_ENV);
  const app = createApp({ config: setup.config, sources: setup.simulator.sources, logger: silentLogger });
  return { fetch: async (path, init) => app.request(path, init), wait: async (ms) => void (await vi.advanceTimersByTimeAsync(ms)) };
});
