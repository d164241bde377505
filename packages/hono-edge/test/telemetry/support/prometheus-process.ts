/**
 * A real Prometheus (Debian's `prometheus`, which CI installs) configured as `deploy/prometheus/prometheus.yml`
 * is, its targets replaced by the test's instances, scraping and evaluating every second; optionally with the
 * shipped alert rules, every duration in them divided by a factor (so an outage's alert fires in seconds).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse, stringify } from "yaml";
import { REPO_DIR } from "../../deploy/support/deploy-files.js";
import { freePort } from "../../redis/support/own-redis.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const found = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;

/** Whether `prometheus` and `promtool` are on PATH. */
export const prometheusTools = found("prometheus") && found("promtool");

/** One alert as Prometheus's `/api/v1/alerts` lists it. */
export interface ActiveAlert {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly state: "pending" | "firing";
}

/** A running Prometheus. */
export interface PrometheusProcess {
  readonly url: string;
  /** An instant query now: its status, error and series. */
  query(expr: string): Promise<{ status: string; error?: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] } }>;
  /** A range query, one sample per `stepS` seconds. */
  range(expr: string, startS: number, endS: number, stepS: number): Promise<{ metric: Record<string, string>; values: [number, string][] }[]>;
  /** The alerts pending or firing now. */
  alerts(): Promise<readonly ActiveAlert[]>;
  stop(): Promise<void>;
}

const DURATION = /^(\d+)([smh])$/;
const SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600 };

/** A Prometheus duration divided by `factor` (at least a second): `5m` / 30 → `10s`. */
export const scaledDuration = (d: string, factor: number): string => {
  const m = DURATION.exec(d);
  if (!m) throw new Error(`not a simple duration: ${d}`);
  return `${Math.max(1, Math.round((Number(m[1]) * SECONDS[m[2]!]!) / factor))}s`;
};

/** The shipped alert rules (`deploy/prometheus/alerts.yml`) with every `for:` and range window divided by `factor`. */
export const scaledAlertRules = async (factor: number): Promise<string> => {
  const rules = parse(await readFile(path.join(REPO_DIR, "deploy/prometheus/alerts.yml"), "utf8")) as { groups: { rules: { expr: string; for?: string }[] }[] };
  for (const rule of rules.groups.flatMap((g) => g.rules)) {
    if (rule.for !== undefined) rule.for = scaledDuration(rule.for, factor);
    rule.expr = rule.expr.replace(/\[(\d+[smh])\]/g, (_, d: string) => `[${scaledDuration(d, factor)}]`);
  }
  return stringify(rules);
};

/**
 * Starts Prometheus in `dir` scraping `targets` (host:port, with labels of their own) every second, with `rules`
 * (a rule file's text) when given, and waits until it scraped every target once.
 */
export const startPrometheus = async (dir: string, targets: readonly { readonly target: string; readonly labels?: Readonly<Record<string, string>> }[], rules?: string): Promise<PrometheusProcess> => {
  const shipped = parse(await readFile(path.join(REPO_DIR, "deploy/prometheus/prometheus.yml"), "utf8")) as {
    global: Record<string, string>;
    scrape_configs: Record<string, unknown>[];
  };
  if (rules !== undefined) await writeFile(path.join(dir, "alerts.yml"), rules);
  const config = {
    ...shipped,
    global: { ...shipped.global, scrape_interval: "1s", evaluation_interval: "1s" },
    rule_files: rules === undefined ? [] : ["alerts.yml"],
    scrape_configs: shipped.scrape_configs.map((c) => ({ ...c, static_configs: targets.map((t) => ({ targets: [t.target], labels: t.labels ?? {} })) })),
  };
  const configFile = path.join(dir, "prometheus.yml");
  await writeFile(configFile, stringify(config));
  const port = await freePort();
  const child: ChildProcess = spawn("prometheus", [`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  try {
    for (let i = 0; ; i++) {
      const up = await fetch(`${url}/api/v1/targets`)
        .then(async (r) => ((await r.json()) as { data: { activeTargets: { health: string }[] } }).data.activeTargets)
        .then((active) => active.length === targets.length && active.every((t) => t.health === "up"))
        .catch(() => false);
      if (up) break;
      if (i > 150) throw new Error("Prometheus did not scrape its targets within 30 s");
      await sleep(200);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url,
    query: async (expr) => (await (await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expr })}`)).json()) as Awaited<ReturnType<PrometheusProcess["query"]>>,
    range: async (expr, startS, endS, stepS) => {
      const res = await fetch(`${url}/api/v1/query_range?${new URLSearchParams({ query: expr, start: String(startS), end: String(endS), step: `${stepS}s` })}`);
      return ((await res.json()) as { data: { result: { metric: Record<string, string>; values: [number, string][] }[] } }).data.result;
    },
    alerts: async () => ((await (await fetch(`${url}/api/v1/alerts`)).json()) as { data: { alerts: ActiveAlert[] } }).data.alerts,
    stop,
  };
};
