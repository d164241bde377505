import { describe, expect, it } from "vitest";
import { DEFAULT_DEMO_OPTIONS, DEFAULT_FAILING_SOURCE, demoOptionsFromEnv, DemoOptionError } from "../../src/server/demo-options.js";
import { simulatedSources, UnknownSourceError } from "../../src/server/demo-sources.js";

describe("the demo's settings from the environment", () => {
  it("needs nothing: port 8787 on localhost, the demo keys, 1-3 s latencies, one failing OTA", () => {
    const o = demoOptionsFromEnv({});
    expect(o).toMatchObject({ port: 8787, hostname: "127.0.0.1", apiKey: DEFAULT_DEMO_OPTIONS.apiKey, latencyMs: [1_000, 3_000], failures: [DEFAULT_FAILING_SOURCE] });
    expect(o.upstream).toBeUndefined();
  });

  it("reads the port, the latencies, the failures and a real upstream", () => {
    const o = demoOptionsFromEnv({
      PORT: "9000",
      VOAR_DEMO_LATENCY_MS: "100-200",
      VOAR_DEMO_FAILURES: "none",
      VOAR_UPSTREAM_URL: "https://upstream.example/api",
      VOAR_UPSTREAM_USERNAME: "agencia",
      VOAR_UPSTREAM_PASSWORD: "segredo-1234",
    });
    expect(o).toMatchObject({ port: 9000, latencyMs: [100, 200], failures: [] });
    expect(o.upstream).toEqual({ baseUrl: "https://upstream.example/api", credentials: { username: "agencia", password: "segredo-1234" } });
    expect(demoOptionsFromEnv({ VOAR_DEMO_FAILURES: "latam, ota:voaja" }).failures).toEqual(["latam", "ota:voaja"]);
  });

  it("refuses what it cannot use, naming the variable", () => {
    expect(() => demoOptionsFromEnv({ PORT: "http" })).toThrow(DemoOptionError);
    expect(() => demoOptionsFromEnv({ PORT: "70000" })).toThrow(/^PORT:/);
    expect(() => demoOptionsFromEnv({ VOAR_DEMO_LATENCY_MS: "3000-1000" })).toThrow(/^VOAR_DEMO_LATENCY_MS:/);
    expect(() => demoOptionsFromEnv({ VOAR_DEMO_API_KEY: "curta" })).toThrow(/^VOAR_DEMO_API_KEY: deve ter ao menos 16/);
    expect(() => demoOptionsFromEnv({ VOAR_UPSTREAM_URL: "https://upstream.example/api" })).toThrow(/VOAR_UPSTREAM_TOKEN/);
  });

  it("names the simulator's sources when a failure names one that does not exist", () => {
    expect(() => simulatedSources({ seed: 1, latencyMs: [0, 0], failures: ["ota:nenhuma"] })).toThrow(UnknownSourceError);
    expect(() => simulatedSources({ seed: 1, latencyMs: [0, 0], failures: ["ota:nenhuma"] })).toThrow(/ota:voaja/);
  });
});
