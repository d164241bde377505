import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { summarizingLogger } from "../../src/logging/repeat-summary.js";
import { memoryLogger, NOW } from "../support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

describe("repeated lines, summarised", () => {
  it("a login attack: the first failure of a username as it comes, then one line per minute with the count and the addresses; other lines pass", async () => {
    const logs = memoryLogger();
    const logger = summarizingLogger(logs.logger, { clock: { now: () => Date.now() } });
    for (let i = 0; i < 552; i++) logger.log({ level: "warn", msg: "login.failed", requestId: `r${i}`, username: "agencia1", client: `203.0.113.${i % 40}` });
    logger.log({ level: "warn", msg: "login.failed", requestId: "other", username: "agencia2", client: "198.51.100.1" });
    logger.log({ level: "info", msg: "request", requestId: "x", status: 400 });
    expect(logs.records.map((r) => [r.msg, r["username"] ?? r["requestId"]])).toEqual([
      ["login.failed", "agencia1"],
      ["login.failed", "agencia2"],
      ["request", "x"],
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(logs.records.slice(3)).toEqual([{ level: "warn", msg: "login.failed", username: "agencia1", repeated: 551, windowMs: 60_000, clients: 40 }]);
    // A new run after the window starts with a whole line again.
    logger.log({ level: "warn", msg: "login.failed", requestId: "late", username: "agencia1", client: "203.0.113.1" });
    expect(logs.records.at(-1)).toMatchObject({ requestId: "late" });
  });
});
