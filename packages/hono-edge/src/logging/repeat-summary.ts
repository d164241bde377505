import type { Clock } from "../clock.js";
import type { Logger, LogRecord } from "./logger.js";

/** Which lines are summarised: those of `msg`, one run per value of the `by` fields (e.g. per username). */
export interface RepeatRule {
  readonly msg: string;
  readonly by: readonly string[];
  /** A field whose distinct values the summary counts (e.g. the client addresses of refused logins). */
  readonly distinct?: string | undefined;
}

/**
 * Lines an operator reads better counted than repeated: per refused or failed login (an attack makes thousands),
 * per source failure of every search while an airline is down, per stream and search while the store is away,
 * per client gone mid-request.
 */
export const DEFAULT_REPEAT_RULES: readonly RepeatRule[] = [
  { msg: "login.failed", by: ["username"], distinct: "client" },
  { msg: "login.limited", by: ["client"], distinct: "username" },
  { msg: "search.source_failed", by: ["sourceId", "tag"] },
  { msg: "search.source_retry", by: ["sourceId", "tag"] },
  { msg: "search.store_unavailable", by: [] },
  { msg: "stream.store_unavailable", by: [] },
  { msg: "search.takeover_failed", by: [] },
  { msg: "request.aborted", by: ["path"] },
  { msg: "unhandled", by: ["error"] },
  { msg: "stream.failed", by: ["error"] },
  { msg: "redis.password_not_needed", by: [] },
];

/** Options of {@link summarizingLogger}. */
export interface RepeatSummaryOptions {
  readonly clock: Clock;
  /** How long a run of repeats is counted before its summary line. Default 60 s. */
  readonly windowMs?: number | undefined;
  readonly rules?: readonly RepeatRule[] | undefined;
}

interface Run {
  readonly first: LogRecord;
  readonly since: number;
  repeated: number;
  readonly values: Set<unknown>;
}

/** Distinct values counted per summary: enough to tell one client from a botnet, bounded whatever comes. */
const MAX_DISTINCT = 1_000;

/**
 * A logger that writes the first line of a run of repeats (same `msg`, same values of the rule's `by` fields) as it
 * comes, counts the others for `windowMs`, then writes one summary line: the first line's fields (the rule's and its
 * level), `repeated` (the lines held back), `windowMs`, and how many distinct values of the rule's `distinct` field
 * they had. A run without repeats writes nothing more; the next line after a window starts a new run. At most two
 * lines per run and window, whatever the rate. Lines without a rule pass through. Runtime-neutral (`setTimeout`,
 * `unref`ed where the runtime has it).
 *
 * @example
 * const logger = summarizingLogger(jsonLinesLogger(), { clock: systemClock });
 */
export const summarizingLogger = (inner: Logger, o: RepeatSummaryOptions): Logger => {
  const windowMs = o.windowMs ?? 60_000;
  const rules = new Map((o.rules ?? DEFAULT_REPEAT_RULES).map((r) => [r.msg, r]));
  const runs = new Map<string, Run>();
  const close = (key: string, run: Run, rule: RepeatRule) => {
    runs.delete(key);
    if (run.repeated === 0) return;
    const fields = Object.fromEntries(rule.by.map((f) => [f, run.first[f]]));
    inner.log({
      level: run.first.level,
      msg: run.first.msg,
      ...fields,
      repeated: run.repeated,
      windowMs,
      ...(rule.distinct === undefined ? {} : { [`${rule.distinct}s`]: run.values.size }),
    });
  };
  return {
    log(record) {
      const rule = rules.get(record.msg);
      if (!rule) return inner.log(record);
      const key = `${record.msg}\u0000${rule.by.map((f) => String(record[f])).join("\u0000")}`;
      const run = runs.get(key);
      if (run) {
        run.repeated++;
        if (rule.distinct !== undefined && run.values.size < MAX_DISTINCT) run.values.add(record[rule.distinct]);
        return;
      }
      const started: Run = { first: record, since: o.clock.now(), repeated: 0, values: new Set(rule.distinct === undefined ? [] : [record[rule.distinct]]) };
      runs.set(key, started);
      inner.log(record);
      const timer = setTimeout(() => close(key, started, rule), windowMs);
      (timer as { unref?: () => void }).unref?.();
    },
  };
};
