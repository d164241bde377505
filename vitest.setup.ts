/**
 * Runs before each unit test file (vitest.shared.ts). Test files share their worker's modules, so each one
 * leaves the next what it found: real timers, no spy, no stubbed global or environment variable.
 */
import { afterAll, vi } from "vitest";

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
