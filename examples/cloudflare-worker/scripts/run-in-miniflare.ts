/**
 * Bundles this Worker with wrangler (`wrangler deploy --dry-run`: the bundle a deploy would upload, nothing
 * uploaded) and runs it in miniflare (workerd) as wrangler.toml declares it, offline, on the simulator: a
 * search started on one instance is polled to completion from a fresh instance on the same Durable Object
 * storage (as after an eviction or a deploy), and the Worker's own route answers beside Voar's.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Readable } from "node:stream";
import { parse } from "smol-toml";
import { EDGE_DIR } from "../../../edge-runtimes/install.mjs";

const here = fileURLToPath(new URL("..", import.meta.url));
// wrangler and miniflare (workerd) are installed apart from the repository's packages, in edge-runtimes/ (the
// example's script installs them first); in a Worker project of your own they are devDependencies as usual.
const { Miniflare } = createRequire(path.join(EDGE_DIR, "package.json"))("miniflare") as {
  Miniflare: new (options: Record<string, unknown> & { handleRuntimeStdio: (stdout: Readable, stderr: Readable) => void }) => { ready: Promise<URL>; dispose(): Promise<void> };
};
const KEY = "worker-example-key-0123456789";

interface Toml {
  readonly name: string;
  readonly compatibility_date: string;
  readonly vars: Record<string, string>;
  readonly durable_objects: { readonly bindings: readonly { readonly name: string; readonly class_name: string }[] };
  readonly migrations: readonly { readonly new_sqlite_classes?: readonly string[] }[];
}

// The bundle wrangler would upload, made by wrangler itself (offline: nothing is uploaded).
await promisify(execFile)(path.join(EDGE_DIR, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", "dist"], {
  cwd: here,
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});
const toml = parse(await readFile(path.join(here, "wrangler.toml"), "utf8")) as unknown as Toml;
const sqlite = new Set(toml.migrations.flatMap((m) => m.new_sqlite_classes ?? []));

/** The Worker as wrangler.toml declares it, with the API key a `wrangler secret put` would add. */
const start = async (persist: string) => {
  const mf = new Miniflare({
    name: toml.name,
    modules: true,
    scriptPath: path.join(here, "dist/worker.js"),
    compatibilityDate: toml.compatibility_date,
    bindings: { ...toml.vars, VOAR_API_KEYS: `example:${KEY}` },
    durableObjects: Object.fromEntries(toml.durable_objects.bindings.map((b) => [b.name, { className: b.class_name, useSQLite: sqlite.has(b.class_name) }])),
    durableObjectsPersist: persist,
    host: "127.0.0.1",
    port: 0,
    handleRuntimeStdio: (stdout, stderr) => {
      stdout.resume();
      stderr.pipe(process.stderr);
    },
  });
  return { mf, origin: new URL(await mf.ready).origin };
};
const consultar = async (origin: string, body: unknown) => {
  const res = await fetch(`${origin}/api/ConsultaAereo/Consultar`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { Token: string; Completed: boolean; TotalItens: number } };
};

const storage = await mkdtemp(path.join(tmpdir(), "voar-worker-example-"));
try {
  const first = await start(storage);
  assert.deepEqual(await (await fetch(`${first.origin}/`)).json(), { service: "my-voar-worker", search: "POST /api/ConsultaAereo/Consultar" });
  console.log("  ✓ the Worker's own route answers beside Voar's");

  const ida = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const started = await consultar(first.origin, { Origem: "CNF", Destino: "GRU", Ida: ida });
  assert.equal(started.status, 200);
  assert.equal(started.body.Completed, false, "the search is still running (its sources take 1.5 s)");
  await first.mf.dispose();
  console.log("  ✓ a search started, then the instance went away before any source answered");

  const fresh = await start(storage);
  let answer = await consultar(fresh.origin, { Token: started.body.Token });
  for (let polls = 0; !answer.body.Completed; polls++) {
    assert.ok(polls < 100, "the search completes");
    await new Promise((resolve) => setTimeout(resolve, 200));
    answer = await consultar(fresh.origin, { Token: started.body.Token });
    assert.equal(answer.status, 200);
  }
  assert.ok(answer.body.TotalItens > 0);
  await fresh.mf.dispose();
  console.log(`  ✓ a fresh instance found it in its Durable Object and polled it to completion: ${answer.body.TotalItens} price groups`);
} finally {
  await rm(storage, { recursive: true, force: true });
}
