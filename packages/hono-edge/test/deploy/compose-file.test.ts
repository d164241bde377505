import { readFileSync } from "node:fs";
import path from "node:path";
import { DCLinter } from "dclint";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { knownVariables } from "../../src/config/unknown-variables.js";
import { composeServices, interpolate, REPO_DIR } from "./support/deploy-files.js";

/**
 * compose.yaml checked without Docker (none runs here): against the Compose Specification's JSON schema and the
 * lint rules that catch a broken file (dclint), every voar-server's environment against the variables the
 * service reads and the configuration they must make, and the cluster profile's wiring (the nodes the instances
 * name are the cluster's, formed before the instances start). The profile itself runs in the integration tier
 * (`compose.integration.ts`), on real redis-server processes.
 */

const FILE = path.join(REPO_DIR, "compose.yaml");
/** Every `VOAR_*` variable voar-server reads: the settings' and the entry's own. */
const KNOWN = new Set(knownVariables());

const services = composeServices();
const voar = services.filter((s) => s.build !== undefined);
const raw = parse(readFileSync(FILE, "utf8"), { merge: true }) as { services: Record<string, { command?: unknown; depends_on?: string[] | Record<string, { condition: string }>; profiles?: string[] }> };
/** The services a service waits for (`depends_on`, a list or a map). */
const dependencies = (name: string): string[] => {
  const d = raw.services[name]?.depends_on ?? [];
  return Array.isArray(d) ? d : Object.keys(d);
};
const condition = (name: string, dependency: string) => (raw.services[name]?.depends_on as Record<string, { condition: string }> | undefined)?.[dependency]?.condition;

describe("compose.yaml", () => {
  it("is a valid Compose file: the specification's schema, no duplicate container names or host ports", () => {
    // dclint turns on every rule it is not told about: the ones that catch a broken deployment are errors, the
    // style rules (key order, quoting) are off, and so are two that the file breaks on purpose or that cannot read
    // it: the voar-server services build the image and name it (build and image), and their ports are bound to
    // an interface through a variable (`${PUBLISH_ADDRESS:-127.0.0.1}`, checked below).
    const on = ["no-duplicate-container-names", "no-duplicate-exported-ports", "no-quotes-in-volumes", "no-version-field", "require-project-name-field", "service-container-name-regex", "service-image-require-explicit-tag"];
    const off = ["no-build-and-image", "no-unbound-port-interfaces", "require-quotes-in-ports", "service-dependencies-alphabetical-order", "service-keys-order", "service-ports-alphabetical-order", "services-alphabetical-order", "top-level-properties-order"];
    const rules = Object.fromEntries([...on.map((r) => [r, 2] as const), ...off.map((r) => [r, 0] as const)]);
    const linter = new DCLinter({ rules, quiet: true, debug: false, exclude: [] } as unknown as ConstructorParameters<typeof DCLinter>[0]);
    const [result] = linter.lintFiles([FILE], false);
    expect(result!.messages.map((m) => `${m.rule}: ${m.message}`)).toEqual([]);
    expect(result!.errorCount).toBe(0);
  });

  it("publishes every port on 127.0.0.1 unless PUBLISH_ADDRESS says otherwise: its defaults hold a demo key and a known secret", () => {
    const published = composeServices().flatMap((s) => s.ports);
    expect(published.length).toBeGreaterThan(5);
    for (const port of published) {
      expect(interpolate(port, {}), port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
      expect(interpolate(port, { PUBLISH_ADDRESS: "0.0.0.0" }), port).toMatch(/^0\.0\.0\.0:\d+:\d+$/);
    }
  });

  it.each(voar.map((s) => [s.name, s] as const))("%s: every VOAR_* variable is one voar-server reads, and they make a valid configuration", (_, service) => {
    const env = Object.fromEntries(Object.entries(service.environment).map(([k, v]) => [k, interpolate(v, {})]));
    const unknown = Object.keys(env).filter((k) => k.startsWith("VOAR_") && !KNOWN.has(k));
    expect(unknown).toEqual([]);
    const loaded = loadConfig({ env });
    expect(loaded.ok ? [] : loaded.errors).toEqual([]);
  });

  it("the cluster profile: its instances name the cluster's six nodes, which the init service forms (3 primaries, a replica each) before they start", () => {
    const inProfile = (name: string) => raw.services[name]?.profiles?.includes("cluster") === true;
    const nodes = Object.entries(raw.services)
      .filter(([name, s]) => inProfile(name) && Array.isArray(s.command) && (s.command as string[]).join(" ").includes("--cluster-enabled yes"))
      .map(([name]) => name)
      .sort();
    expect(nodes).toHaveLength(6);
    const instances = voar.filter((s) => inProfile(s.name));
    expect(instances.length).toBe(2);
    for (const instance of instances) {
      const loaded = loadConfig({ env: Object.fromEntries(Object.entries(instance.environment).map(([k, v]) => [k, interpolate(v, {})])) });
      const cluster = loaded.ok ? loaded.config.store.redis?.cluster : undefined;
      expect(cluster?.map((n) => n.split(":")[0]).sort()).toEqual(nodes);
      expect(dependencies(instance.name)).toEqual(["redis-cluster-init"]);
      expect(condition(instance.name, "redis-cluster-init")).toBe("service_completed_successfully");
    }
    const init = raw.services["redis-cluster-init"]!;
    expect(inProfile("redis-cluster-init")).toBe(true);
    expect(dependencies("redis-cluster-init").sort()).toEqual(nodes);
    const script = (init.command as string[]).join(" ");
    expect(script).toMatch(/--cluster create .*--cluster-replicas 1 --cluster-yes/);
    expect(script).toContain(`for n in ${nodes.map((n) => n.replace("redis-node-", "")).join(" ")}`);
    // Every service a service waits for exists, and runs whenever it does.
    for (const [name, s] of Object.entries(raw.services)) {
      for (const dependency of dependencies(name)) {
        expect(raw.services[dependency], `${name} depends on ${dependency}`).toBeDefined();
        const profiles = raw.services[dependency]!.profiles;
        expect(profiles === undefined || profiles.some((p) => s.profiles?.includes(p)), `${dependency} runs whenever ${name} does`).toBe(true);
      }
    }
  });
});
