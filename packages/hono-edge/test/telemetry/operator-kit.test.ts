/**
 * The operator's kit as shipped: the Grafana dashboard is valid JSON whose every query names metrics a
 * scrape of the service has, on the data source Grafana is provisioned with; Prometheus scrapes both
 * compose instances on their metrics port; and the package README lists every metric of the service.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { createPromMetrics } from "../../src/entries/node-metrics.js";
import { REPO_DIR, composeServices } from "../deploy/support/deploy-files.js";
import { parseScrape } from "../support/prometheus.js";

interface Panel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly datasource?: { readonly uid: string };
  readonly targets?: readonly { readonly expr: string; readonly refId: string }[];
}

const read = (file: string) => readFileSync(path.join(REPO_DIR, file), "utf8");
const dashboard = JSON.parse(read("deploy/grafana/dashboards/voar-dashboard.json")) as { uid: string; title: string; panels: readonly Panel[] };
const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

/** A scrape of the service's metrics with every one of them written to at least once, as a busy instance's. */
const busyScrape = async () => {
  const m = createPromMetrics();
  m.request("/api/ConsultaAereo/Consultar", "POST", 200, 0.002);
  m.searchStarted();
  m.searchJoined();
  m.searchRefused("capacity");
  m.searchEnded("finished");
  m.searchEnded("failed");
  m.runningSearches(() => 2);
  m.sourceAnswered("upstream:latam", 3.2, 40);
  m.sourceFailed("upstream:gol", "SourceTimeout", true);
  m.sourceBreakerState("upstream:gol", "open");
  m.upstreamRequest("/ConsultaAereo/Consultar", "ok", 0.4);
  m.upstreamPace(() => ({ answerSeconds: 0.6, slow: false }));
  m.upstreamSearchSettled(6, 7);
  m.storeCommand("ok", 0.0004);
  m.storeBreakerState("closed");
  m.storeFallback("rate_limit");
  m.refused("tenant");
  m.sseStreams(1);
  m.watchStalled();
  m.cacheLookup("stale");
  m.firstResult(0.8);
  m.loadShedding(true);
  m.traceExport("success", 12);
  return parseScrape(await m.scrape());
};

describe("the Grafana dashboard", () => {
  it("is a dashboard with panels of unique ids, each query on the provisioned Prometheus", () => {
    expect(dashboard.uid).toBe("voar-service");
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(queries.length).toBeGreaterThan(20);
    const provisioned = parse(read("deploy/grafana/provisioning/datasources/prometheus.yml")) as { datasources: { uid: string; url: string }[] };
    for (const p of dashboard.panels.filter((p) => p.type !== "row")) expect(p.datasource?.uid, p.title).toBe(provisioned.datasources[0]!.uid);
    expect(provisioned.datasources[0]!.url).toBe("http://prometheus:9090");
  });

  it("queries only metrics a scrape of the service has", async () => {
    const scraped = await busyScrape();
    const used = new Set(queries.flatMap((q) => [...q.expr.matchAll(/\bvoar_[a-z0-9_]+/g)].map((m) => m[0])));
    expect(used.size).toBeGreaterThan(15);
    for (const name of used) expect(scraped.get(name)?.samples.length ?? 0, `${name} (dashboard) in a scrape`).toBeGreaterThan(0);
    // Every metric of the service (Node's own aside) has a panel.
    const ours = [...scraped.keys()].filter((n) => !/^voar_(nodejs|process)_/.test(n) && !/_(bucket|sum|count)$/.test(n));
    for (const name of ours) expect([...used].some((u) => u.startsWith(name)), `${name} on the dashboard`).toBe(true);
  });
});

describe("compose.yaml's observability profile", () => {
  it("runs Prometheus scraping both instances on their metrics port, and Grafana with the dashboard", () => {
    const services = composeServices();
    // The instances `docker compose up` starts (the cluster profile has its own).
    const voar = services.filter((s) => s.build !== undefined && s.profiles.length === 0);
    const config = parse(read("deploy/prometheus/prometheus.yml")) as { scrape_configs: { metrics_path: string; static_configs: { targets: string[] }[] }[] };
    const targets = config.scrape_configs.flatMap((c) => c.static_configs.flatMap((s) => s.targets));
    expect(targets.sort()).toEqual(voar.map((s) => `${s.name}:${s.environment["VOAR_METRICS_PORT"]}`).sort());
    expect(config.scrape_configs[0]!.metrics_path).toBe("/metrics");
    const doc = parse(read("compose.yaml"), { merge: true }) as { services: Record<string, { profiles?: string[]; volumes?: string[] }> };
    expect(doc.services["prometheus"]!.profiles).toEqual(["observability"]);
    expect(doc.services["grafana"]!.profiles).toEqual(["observability"]);
    expect(doc.services["prometheus"]!.volumes).toContain("./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
    // The alert rules beside the configuration, where its rule_files finds them.
    expect((config as unknown as { rule_files: string[] }).rule_files).toEqual(["alerts.yml"]);
    expect(doc.services["prometheus"]!.volumes).toContain("./deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro");
    const provider = parse(read("deploy/grafana/provisioning/dashboards/voar.yml")) as { providers: { options: { path: string } }[] };
    expect(doc.services["grafana"]!.volumes).toContain(`./deploy/grafana/dashboards:${provider.providers[0]!.options.path}:ro`);
  });
});

describe("the trace backend of the observability profile", () => {
  it("Jaeger receives OTLP/HTTP where the instances are told to send, and Grafana reads it where Jaeger serves its queries", () => {
    const doc = parse(read("compose.yaml"), { merge: true }) as {
      services: Record<string, { image?: string; profiles?: string[]; environment?: Record<string, string>; ports?: string[]; depends_on?: string[] }>;
    };
    const jaeger = doc.services["jaeger"]!;
    expect(jaeger.profiles).toEqual(["observability"]);
    // An image pinned to a release whose all-in-one takes OTLP (1.35 and later), with its receiver on.
    const version = /^jaegertracing\/all-in-one:(\d+)\.(\d+)\.\d+$/.exec(jaeger.image ?? "");
    expect(version && Number(version[1]) * 1000 + Number(version[2])).toBeGreaterThanOrEqual(1035);
    expect(jaeger.environment?.["COLLECTOR_OTLP_ENABLED"]).toBe("true");
    expect(jaeger.ports).toContain("${PUBLISH_ADDRESS:-127.0.0.1}:16686:16686");
    // The endpoint the compose file tells the operator to set: this service, OTLP/HTTP's port (the exporter adds /v1/traces).
    const told = /OTEL_EXPORTER_OTLP_ENDPOINT=(http:\/\/[^\s]+)/.exec(read("compose.yaml"))?.[1];
    expect(told).toBe("http://jaeger:4318");
    const voar = composeServices().filter((s) => s.build !== undefined);
    for (const s of voar) expect(s.environment["OTEL_EXPORTER_OTLP_ENDPOINT"]).toBe("${OTEL_EXPORTER_OTLP_ENDPOINT:-}");
    // Grafana's Jaeger data source: the service's query port.
    const provisioned = parse(read("deploy/grafana/provisioning/datasources/prometheus.yml")) as { datasources: { type: string; url: string }[] };
    expect(provisioned.datasources.find((d) => d.type === "jaeger")?.url).toBe("http://jaeger:16686");
    expect(doc.services["grafana"]!.depends_on).toContain("jaeger");
  });
});

describe("the package README", () => {
  it("lists every metric of the service, with its type", async () => {
    const readme = read("packages/hono-edge/README.md");
    const scraped = await busyScrape();
    for (const [name, family] of scraped) {
      if (/^voar_(nodejs|process)_/.test(name) || family.type === "UNTYPED") continue;
      expect(readme, name).toMatch(new RegExp(`\\| \`${name}\` \\| ${family.type.toLowerCase()} \\|`));
    }
  });
});
