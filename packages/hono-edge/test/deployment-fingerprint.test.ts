import { describe, expect, it } from "vitest";
import { deploymentFingerprint, deploymentIdentity, deploymentKeyPrefix } from "../src/config/deployment-fingerprint.js";
import { testConfig } from "./support/app.js";

const upstream = (over: Record<string, unknown> = {}) =>
  testConfig({ upstream: { url: "https://upstream.example/api", username: "agencia", password: "segredo-1", airlines: [1, 2, 3], ...over } });

describe("a deployment's fingerprint: what answers its searches", () => {
  it("is the same for every instance of one deployment, whatever its keys, passwords, limits or the spelling of its URL", async () => {
    const a = await deploymentFingerprint(upstream());
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(await deploymentFingerprint(upstream({ password: "segredo-2", airlines: [3, 1, 2], url: "HTTPS://Upstream.Example:443/api/" }))).toBe(a);
    const other = testConfig({ apiKeys: [{ name: "nova", key: "another-api-key-0123456789" }], limits: { maxSessions: 7 } });
    expect(await deploymentFingerprint(other)).toBe(await deploymentFingerprint(testConfig()));
  });

  it("differs when the sources differ: upstream or simulator, URL, account, allow-list, OTA comparison, seed, latency, sources run", async () => {
    const variants = [
      upstream(),
      upstream({ url: "https://other.example/api" }),
      upstream({ username: "outra-agencia" }),
      upstream({ airlines: [1, 2] }),
      upstream({ otas: false }),
      testConfig({ upstream: { url: "https://upstream.example/api", token: "static-token-1" } }),
      testConfig({ upstream: { url: "https://upstream.example/api", token: "static-token-2" } }),
      testConfig(),
      testConfig({ search: { sources: ["latam", "gol"] } }),
    ];
    const prints = await Promise.all(variants.map((c) => deploymentFingerprint(c)));
    prints.push(await deploymentFingerprint(testConfig(), { seed: 7 }), await deploymentFingerprint(testConfig(), { latencyMs: 100 }));
    expect(new Set(prints).size).toBe(prints.length);
  });

  it("never holds a secret: a static token enters as its SHA-256, a password not at all", async () => {
    const identity = await deploymentIdentity(testConfig({ upstream: { url: "https://upstream.example/api", token: "static-token-1" } }));
    expect(identity).not.toContain("static-token-1");
    expect(identity).toMatch(/token-sha256:[0-9a-f]{64}/);
    expect(await deploymentIdentity(upstream())).not.toContain("segredo-1");
  });

  it("goes under the operator's prefix (a cluster hash tag stays first)", () => {
    expect(deploymentKeyPrefix(undefined, "0123456789abcdef")).toBe("voar:0123456789abcdef:");
    expect(deploymentKeyPrefix("{acme}:", "0123456789abcdef")).toBe("{acme}:0123456789abcdef:");
  });
});
