import { existsSync, readFileSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeUpstream, liveBackend, serveOnNode, type ConsultarBackend } from "@voar/testing";
import { createSimulator } from "@voar/testing/simulator";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { connectRedis, countKeys, deleteKeys, REDIS_URL, testPrefix } from "../redis/support/redis-harness.js";
import { startRuntime, type RuntimeServer } from "../runtimes/support/runtime-process.js";
import { buildAndDeploy, composeServices, dockerfile, execForm, interpolate, REPO_DIR, resolveFrom, type ComposeService } from "./support/deploy-files.js";
import { composeCluster } from "./support/compose-cluster.js";

// The deployment as shipped: compose.yaml's voar-server services, each started as the image would start it
// (the Dockerfile's CMD, from the production copy of apps/server its build stage makes, with the service's
// environment as compose would interpolate it) but as Node processes on this machine, since there is no
// Docker engine here. Only the Redis URL is rewritten to this machine's Redis, under a prefix of the test's own.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let app = "";
beforeAll(() => {
  app = buildAndDeploy();
}, 300_000);
afterAll(() => {
  if (app) rmSync(path.dirname(app), { recursive: true, force: true });
});

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

const instructions = dockerfile();
const runtimeStage = Math.max(...instructions.map((i) => i.stage));
const runtime = instructions.filter((i) => i.stage === runtimeStage);
const one = (keyword: string) => runtime.filter((i) => i.keyword === keyword).at(-1)!.args;
/** `ENV A=1 B=2` of the runtime stage. */
const imageEnv = Object.fromEntries(
  runtime.filter((i) => i.keyword === "ENV").flatMap((i) => [...i.args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
);

/** Where a path of the image is in the production copy: the copy is what `COPY --from=build /deploy /app` puts at /app. */
const inCopy = (imagePath: string) => {
  const copy = /--from=build\s+\/deploy\s+(\S+)/.exec(one("COPY"));
  expect(copy, "the runtime stage copies the build stage's /deploy").not.toBeNull();
  const rel = path.posix.relative(copy![1]!, imagePath);
  expect(rel.startsWith(".."), `${imagePath} lies in the copied package`).toBe(false);
  return path.join(app, rel);
};

/** The file the image runs for its CMD: an absolute path, or a name on PATH that a `ln -s` of the image makes. */
const commandFile = (): string => {
  const [command] = execForm(one("CMD"));
  if (command!.startsWith("/")) return inCopy(command!);
  const link = runtime.map((i) => /ln\s+-s\s+(\S+)\s+\/usr\/local\/bin\/(\S+)/.exec(i.args)).find((m) => m?.[2] === command);
  expect(link, `the image puts ${command} on PATH`).toBeDefined();
  return inCopy(link![1]!);
};

/** Every VOAR_* variable of this process blanked (blank counts as unset), so only the service's own apply. */
const blankVoar = () => Object.fromEntries(Object.keys(process.env).filter((k) => k.startsWith("VOAR_")).map((k) => [k, ""]));

/**
 * Starts a compose service as the image would, with its environment interpolated with `shell`. Both
 * instances run on this one machine here: each listens on free ports (its metrics port too).
 */
const startService = async (service: ComposeService, shell: Record<string, string>, prefix: string, store: Record<string, string> = { VOAR_STORE_REDIS_URL: REDIS_URL }): Promise<RuntimeServer> => {
  const env = Object.fromEntries(Object.entries(service.environment).map(([k, v]) => [k, interpolate(v, shell)]));
  const args = service.command ?? execForm(one("CMD"));
  expect(args, "compose keeps the image's CMD").toEqual(execForm(one("CMD")));
  const server = await startRuntime(
    process.execPath,
    [commandFile()],
    { ...blankVoar(), ...imageEnv, ...env, ...store, VOAR_STORE_REDIS_KEY_PREFIX: prefix, VOAR_PORT: "0", VOAR_METRICS_PORT: "0", VOAR_HOSTNAME: "127.0.0.1" },
    app,
  );
  cleanup.push(() => server.stop());
  return server;
};

/** The instances `docker compose up` starts (the cluster profile's apart). */
const voarServices = composeServices().filter((s) => s.build !== undefined && s.profiles.length === 0);

/** Two instances of compose.yaml on a fresh Redis prefix (keys deleted afterwards). */
const startCompose = async (shell: Record<string, string> = {}) => {
  const redis = await connectRedis();
  const prefix = testPrefix();
  cleanup.push(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });
  const [first, second] = await Promise.all(voarServices.map((s) => startService(s, shell, prefix)));
  return { first: first!, second: second!, keys: () => countKeys(redis, prefix) };
};

/** An access token from `POST /api/Token` with the agency compose.yaml configures. */
const login = async (server: RuntimeServer, shell: Record<string, string> = {}) => {
  const agency = interpolate(voarServices[0]!.environment["VOAR_AGENCIES"]!, shell);
  const at = agency.indexOf(":");
  const form = new URLSearchParams({ grant_type: "password", username: agency.slice(0, at), password: agency.slice(at + 1) });
  const res = await fetch(`${server.baseUrl}/api/Token`, { method: "POST", body: form });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
};

const consultar = async (server: RuntimeServer, token: string, body: unknown) => {
  const res = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope;
};

/** Starts a search on `first` and polls it by its Token on `second` until Completed (bounded). */
const searchAcross = async (first: RuntimeServer, second: RuntimeServer, token: string, query: Record<string, unknown>) => {
  const started = await consultar(first, token, query);
  const id = started["Token"];
  expect(typeof id).toBe("string");
  for (let i = 0; i < 240; i++) {
    const polled = await consultar(second, token, { Token: id, QuantidadePorPagina: 100 });
    expect(polled["Token"]).toBe(id);
    if (polled["Completed"] === true) return polled;
    await sleep(250);
  }
  throw new Error("the search did not complete within 240 polls");
};

const fontes = (body: Envelope) => (body["Progresso"] as { Fontes: { Nome: string; Estado: string; Itens: number }[] }).Fontes;

describe("compose.yaml", () => {
  it("runs two voar-server instances on one Redis, on different host ports, with the same settings", () => {
    expect(voarServices.map((s) => s.name)).toHaveLength(2);
    const [a, b] = voarServices;
    expect(a!.environment).toEqual(b!.environment);
    // The host port: the part before the container's (`${PUBLISH_ADDRESS:-127.0.0.1}:8787:8787`).
    expect(a!.ports.map((p) => p.split(":").at(-2))).not.toEqual(b!.ports.map((p) => p.split(":").at(-2)));
    const redisUrl = new URL(interpolate(a!.environment["VOAR_STORE_REDIS_URL"]!, {}));
    expect(composeServices().map((s) => s.name)).toContain(redisUrl.hostname);
    expect(a!.environment["VOAR_TOKEN_SECRET"]).toBeDefined();
  });

  it("on the simulator: a search started on one instance is polled to completion on the other, with a token either accepts", async () => {
    const { first, second, keys } = await startCompose();
    const token = await login(first);
    const done = await searchAcross(first, second, token, { Origem: "CNF", Destino: "SDU", Ida: daysAhead(30) });
    expect(done["TotalItens"]).toBeGreaterThan(0);
    expect(fontes(done).every((f) => f.Estado === "concluida")).toBe(true);
    expect(await keys()).toBeGreaterThan(0);
    // The production copy serves the API reference's own files: /api/docs works offline.
    const docs = await fetch(`${first.baseUrl}/api/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("/api/docs/assets/swagger-ui-bundle.js");
    const bundle = await fetch(`${first.baseUrl}/api/docs/assets/swagger-ui-bundle.js`);
    expect([bundle.status, bundle.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
  });

  it("on an upstream: offers arrive through both instances, the allowed airlines' alone, from one all-airlines upstream search", async () => {
    const asked: number[] = [];
    const live = liveBackend({ sources: createSimulator({ latencyMs: 300 }).sources });
    const counting: ConsultarBackend = {
      answer: (call) => {
        // A new search names its Companhia; the polls that follow name the upstream's search id instead.
        const companhia = (call.body as { Companhia?: unknown }).Companhia;
        if (companhia !== undefined && companhia !== null) asked.push(Number(companhia));
        return live.answer(call);
      },
      close: () => live.close(),
    };
    const upstream = createFakeUpstream({ backend: counting, auth: { tokens: ["fake-upstream-token-0001"] } });
    const served = await serveOnNode(upstream.app.fetch);
    cleanup.push(() => upstream.close(), () => served.close());
    const shell = { VOAR_UPSTREAM_URL: `${served.origin}/api`, VOAR_UPSTREAM_TOKEN: "fake-upstream-token-0001", VOAR_UPSTREAM_AIRLINES: "1,2" };
    const { first, second } = await startCompose(shell);
    const token = await login(first, shell);

    const modeA = await searchAcross(first, second, token, { Origem: "CNF", Destino: "SDU", Ida: daysAhead(30) });
    expect(modeA["TotalItens"]).toBeGreaterThan(0);
    expect(fontes(modeA).map((f) => [f.Nome, f.Estado])).toEqual([
      ["LATAM", "concluida"],
      ["GOL", "concluida"],
    ]);
    // The default strategy: one all-airlines upstream search (the airlines left out of the allow-list not shown).
    expect([...new Set(asked)]).toEqual([-1]);
    expect(modeA["Data"]).toBeDefined();

    const modeB = await searchAcross(first, second, token, { Origem: "GRU", Destino: "LIS", Ida: daysAhead(30), Companhia: 1300 });
    expect(fontes(modeB).map((f) => [f.Nome, f.Estado])).toEqual([["OTAs do fornecedor", "concluida"]]);
    expect(modeB["TotalItens"]).toBeGreaterThan(0);
    expect([...new Set(asked)].sort((x, y) => x - y)).toEqual([-1, 1300]);
  });
});

describe("compose.yaml's cluster profile", () => {
  it("on real redis-server processes: the nodes' command, the init script forms the cluster once, two instances share a search on it", async () => {
    const cluster = await composeCluster();
    cleanup.push(() => cluster.stop());
    const instances = composeServices().filter((s) => s.build !== undefined && s.profiles.includes("cluster"));
    expect(instances).toHaveLength(2);
    const prefix = testPrefix();
    // The nodes are named as compose's network names them; here each name is its loopback address.
    const started = await Promise.all(
      instances.map((s) => startService(s, {}, prefix, { VOAR_STORE_REDIS_URL: "", VOAR_STORE_REDIS_CLUSTER: cluster.resolve(interpolate(s.environment["VOAR_STORE_REDIS_CLUSTER"]!, {})) })),
    );
    const token = await login(started[0]!);
    const done = await searchAcross(started[0]!, started[1]!, token, { Origem: "CNF", Destino: "SDU", Ida: daysAhead(31) });
    expect(done["TotalItens"]).toBeGreaterThan(0);
    // The search's keys live on the cluster (its hash on the primary that serves its slot).
    expect(await cluster.keys(`${prefix}*search:*`)).toBe(1); // under the deployment fingerprint
  }, 120_000);
});

describe("the Dockerfile", () => {
  it("builds on node:20-slim and runs, as a non-root user, a CMD that exists in the production copy", () => {
    expect(instructions.filter((i) => i.keyword === "FROM").map((i) => i.args.split(/\s+/)[0])).toEqual(["node:20-slim", "node:20-slim"]);
    expect(one("USER")).not.toMatch(/^(root|0)$/);
    expect(one("EXPOSE")).toBe("8787");
    const file = commandFile();
    expect(existsSync(file), file).toBe(true);
    // The binary imports hono-edge's Node entry, which resolves, from the copy, to the built JavaScript.
    const entry = /import\(["'](.+?)["']\)/.exec(readFileSync(file, "utf8"))![1]!;
    const entryFile = fileURLToPath(resolveFrom(path.dirname(file), entry));
    expect(entryFile, "the binary's entry is built JavaScript").toMatch(/[\\/]dist[\\/]node\.js$/);
    expect(existsSync(entryFile), "the binary's entry was built").toBe(true);
    // What the entry imports, also what it loads only when configured (the simulator; ioredis for the Redis
    // store), is in the copy, the workspace packages as built JavaScript: their manifests were rewritten for
    // production, the workspace's own left as they were.
    for (const dependency of ["@voar/core", "@voar/http-adapter", "@voar/testing/simulator", "ioredis"]) {
      const resolved = fileURLToPath(resolveFrom(path.dirname(entryFile), dependency));
      expect(existsSync(resolved), dependency).toBe(true);
      expect(resolved.startsWith(app), `${dependency} is in the copy`).toBe(true);
      if (dependency.startsWith("@voar/")) expect(resolved, dependency).toMatch(/[\\/]dist[\\/].*\.js$/);
    }
    const manifest = (p: string) => JSON.parse(readFileSync(p, "utf8")) as { publishConfig?: unknown };
    expect(manifest(path.join(REPO_DIR, "packages/core/package.json")).publishConfig).toBeDefined();
  });

  it("its HEALTHCHECK passes on a serving instance and fails where nothing serves", async () => {
    const check = execForm(one("HEALTHCHECK"));
    const server = await startRuntime(process.execPath, [commandFile()], { ...blankVoar(), ...imageEnv, VOAR_API_KEYS: "acme:a-valid-api-key-0123456789", VOAR_PORT: "0", VOAR_HOSTNAME: "127.0.0.1" }, app);
    cleanup.push(() => server.stop());
    const port = new URL(server.baseUrl).port;
    // HEALTHCHECK runs in the container, where the image's ENV (VOAR_PORT) is set.
    const run = (p: string) => spawnSync(check[0]!, check.slice(1), { cwd: app, env: { ...process.env, ...imageEnv, VOAR_PORT: p }, timeout: 10_000 });
    expect(check[0]).toBe("node");
    expect(run(port).status).toBe(0);
    await server.stop();
    expect(run(port).status).toBe(1);
  });
});
