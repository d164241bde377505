/**
 * What the unit tier's vitest configs share (packages, apps, docs): timeouts that catch a hang, never a busy
 * machine.
 *
 * A unit test runs on virtual time and does bounded work (property tests: a fixed number of runs), so how long
 * it takes says nothing about whether it passes: on the project's shared two-core machines, with turbo running
 * every package's tests at once beside other work, the same test takes from under a second to tens of seconds.
 * A timeout a busy machine can reach would fail a test that is right; so the limit is minutes, far above the
 * slowest test on a loaded machine (about 35 s at a load of 10 on two cores), and only a test that waits for
 * something that never comes reaches it. `.ci/run` runs the unit tier under load to keep it that way.
 */
export const UNIT_TIMEOUTS = {
  testTimeout: 300_000,
  hookTimeout: 300_000,
} as const;
