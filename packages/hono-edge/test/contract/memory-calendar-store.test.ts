import { createMemorySessionStore } from "../../src/search/memory-session-store.js";
import { manualClock } from "../support/app.js";
import { calendarStoreContract } from "./calendar-store-contract.js";

// The calendar store's contract on the default store; the Redis store runs the same suite in the integration tier.
calendarStoreContract("memory", async ({ ttlMs, maxChangesPerSearch }) => {
  const clock = manualClock(Date.parse("2026-03-02T15:00:00Z"));
  const store = createMemorySessionStore({ clock, maxSessions: 100, ttlMs, maxChangesPerSearch });
  return { store, now: () => clock.now(), elapse: async (ms) => clock.advance(ms), close: async () => undefined };
});
