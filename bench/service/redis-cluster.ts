/**
 * A Redis Cluster of the bench's own (3 primaries, a replica each) on free ports of 127.0.0.1 in a temporary
 * folder, no persistence; `stop()` kills every node and removes the folder. Undefined when `redis-server` is not on
 * PATH. The node timeout is Redis's default-like 5 s, so that a busy machine never fails a primary over mid-run.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const cli = (port: number, ...args: string[]) => spawnSync("redis-cli", ["-p", String(port), ...args], { encoding: "utf8", timeout: 5_000 }).stdout ?? "";

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const until = async (what: string, ok: () => boolean, maxMs: number) => {
  for (const deadline = Date.now() + maxMs; Date.now() < deadline; await sleep(100)) if (ok()) return;
  throw new Error(what);
};

/** The cluster: its nodes as `VOAR_STORE_REDIS_CLUSTER` takes them. */
export interface BenchCluster {
  readonly nodes: string;
  stop(): Promise<void>;
}

export const startRedisCluster = async (): Promise<BenchCluster | undefined> => {
  if (spawnSync("redis-server", ["--version"]).status !== 0) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), "voar-bench-cluster-"));
  const nodes: { port: number; proc: ChildProcess }[] = [];
  const stop = async () => {
    await Promise.all(nodes.filter((n) => n.proc.exitCode === null && n.proc.signalCode === null).map((n) => (n.proc.kill("SIGKILL"), once(n.proc, "exit"))));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 6; i++) {
      const port = await freePort();
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", `nodes-${port}.conf`, "--cluster-node-timeout", "5000", "--save", "", "--appendonly", "no", "--dir", dir];
      nodes.push({ port, proc: spawn("redis-server", args, { stdio: "ignore" }) });
    }
    for (const n of nodes) await until(`redis-server on ${n.port} did not start`, () => cli(n.port, "ping").trim() === "PONG", 10_000);
    const created = spawnSync("redis-cli", ["--cluster", "create", ...nodes.map((n) => `127.0.0.1:${n.port}`), "--cluster-replicas", "1", "--cluster-yes"], { encoding: "utf8", timeout: 30_000 });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    await until("the cluster did not form", () => nodes.every((n) => cli(n.port, "cluster", "info").includes("cluster_state:ok")), 20_000);
    await until("the replicas did not sync", () => nodes.every((n) => cli(n.port, "role").startsWith("master") || cli(n.port, "info", "replication").includes("master_link_status:up")), 20_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return { nodes: nodes.map((n) => `127.0.0.1:${n.port}`).join(","), stop };
};
