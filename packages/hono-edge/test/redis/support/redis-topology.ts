import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./own-redis.js";

/**
 * Real Redis topologies for the integration tier, started by the tests on free ports in a temporary folder of
 * their own, with short timeouts so that a failover takes about a second: a Redis Cluster (3 primaries, 3
 * replicas) and a primary with a replica watched by 3 sentinels. Everything they start is killed, and the folder
 * removed, by `stop()`, whatever happened. `redis-server` and `redis-cli` must be on PATH.
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const cli = (port: number, ...args: string[]) => spawnSync("redis-cli", ["-p", String(port), ...args], { encoding: "utf8", timeout: 5_000 });

/** One redis-server process of a topology. */
interface Node {
  readonly port: number;
  proc: ChildProcess;
  readonly args?: readonly string[];
}

const startServer = (args: readonly string[], cwd: string): ChildProcess => spawn("redis-server", [...args], { cwd, stdio: "ignore" });

const waitFor = async (what: string, ok: () => boolean, maxMs: number): Promise<void> => {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    if (ok()) return;
    await sleep(100);
  }
  throw new Error(`${what} within ${maxMs} ms`);
};

const kill = async (proc: ChildProcess): Promise<void> => {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, "exit");
  proc.kill("SIGCONT");
  proc.kill("SIGKILL");
  await exited;
};

/** A cluster node as `CLUSTER NODES` lists it. */
export interface ClusterNodeInfo {
  readonly id: string;
  readonly port: number;
  readonly role: "master" | "slave";
  readonly failed: boolean;
}

/** A running Redis Cluster of the test's own. */
export interface TestCluster {
  /** `127.0.0.1:port` of every node, as `VOAR_STORE_REDIS_CLUSTER` takes them. */
  readonly nodes: readonly string[];
  /** The nodes as one node (a live one) sees them now. */
  topology(): readonly ClusterNodeInfo[];
  /** The port of the primary that serves a key now. */
  primaryOf(key: string): number;
  /** Kills the node on `port` with SIGKILL (no chance to hand anything over). */
  killNode(port: number): Promise<void>;
  /** Starts a killed node again (it rejoins as a replica of the primary that took its slots over). */
  restartNode(port: number): Promise<void>;
  /** Waits until every node still running says `cluster_state:ok` and no live primary lacks a replica's promotion. */
  waitHealthy(maxMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `primaries` primaries with one replica each in cluster mode (`cluster-node-timeout` `nodeTimeoutMs`: a
 * dead primary's replica is promoted about that long after it died), and waits until the cluster is healthy.
 */
export const startCluster = async (o: { readonly primaries?: number; readonly nodeTimeoutMs?: number } = {}): Promise<TestCluster> => {
  const count = 2 * (o.primaries ?? 3);
  const dir = await mkdtemp(path.join(tmpdir(), "voar-cluster-"));
  const nodes: Node[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => kill(n.proc)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const args = [
        "--port", String(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", `nodes-${port}.conf`,
        "--cluster-node-timeout", String(o.nodeTimeoutMs ?? 1_000), "--save", "", "--appendonly", "no", "--dir", dir,
        // A replica of a dead primary tries to take over at once, however long ago it last heard from it.
        "--cluster-replica-validity-factor", "0",
      ];
      nodes.push({ port, proc: startServer(args, dir), args });
    }
    for (const n of nodes) await waitFor(`redis-server on ${n.port} did not answer`, () => cli(n.port, "ping").stdout.trim() === "PONG", 10_000);
    const created = spawnSync("redis-cli", ["--cluster", "create", ...nodes.map((n) => `127.0.0.1:${n.port}`), "--cluster-replicas", "1", "--cluster-yes"], { encoding: "utf8", timeout: 30_000 });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
  } catch (e) {
    await stop();
    throw e;
  }
  const alive = () => nodes.filter((n) => n.proc.exitCode === null && n.proc.signalCode === null);
  const topology = (): ClusterNodeInfo[] => {
    const text = cli(alive()[0]!.port, "cluster", "nodes").stdout;
    return text
      .trim()
      .split("\n")
      .map((line) => {
        const [id, address, flags] = line.split(" ");
        return { id: id!, port: Number(address!.split("@")[0]!.split(":")[1]), role: flags!.includes("master") ? "master" : "slave", failed: /fail/.test(flags!) } as const;
      });
  };
  const cluster: TestCluster = {
    nodes: nodes.map((n) => `127.0.0.1:${n.port}`),
    topology,
    primaryOf(key) {
      const slot = Number(cli(alive()[0]!.port, "cluster", "keyslot", key).stdout.trim());
      const shards = JSON.parse(cli(alive()[0]!.port, "--json", "cluster", "slots").stdout) as [number, number, [string, number, string]][];
      const shard = shards.find(([from, to]) => slot >= from && slot <= to);
      if (!shard) throw new Error(`no primary serves slot ${slot}`);
      return shard[2][1];
    },
    async killNode(port) {
      const node = nodes.find((n) => n.port === port);
      if (node) await kill(node.proc);
    },
    async restartNode(port) {
      const node = nodes.find((n) => n.port === port);
      if (!node || (node.proc.exitCode === null && node.proc.signalCode === null)) return; // running: nothing to restart
      node.proc = startServer(node.args!, dir);
      await waitFor(`redis-server on ${port} did not answer again`, () => cli(port, "ping").stdout.trim() === "PONG", 10_000);
    },
    async waitHealthy(maxMs = 20_000) {
      await waitFor(
        "the cluster was not healthy",
        () => {
          const live = new Set(alive().map((n) => n.port));
          const ok = alive().every((n) => cli(n.port, "cluster", "info").stdout.includes("cluster_state:ok"));
          const nodes = topology();
          // Every live replica has synced with its primary (a fresh one waits for a full copy first).
          const synced = nodes.every((n) => n.role !== "slave" || n.failed || !live.has(n.port) || cli(n.port, "info", "replication").stdout.includes("master_link_status:up"));
          return ok && synced && nodes.every((n) => n.role !== "master" || n.failed || live.has(n.port));
        },
        maxMs,
      );
    },
    stop,
  };
  try {
    await cluster.waitHealthy();
  } catch (e) {
    await stop();
    throw e;
  }
  return cluster;
};

/** A running primary, replica and sentinels of the test's own. */
export interface TestSentinels {
  /** `127.0.0.1:port` of every sentinel, as `VOAR_STORE_REDIS_SENTINELS` takes them. */
  readonly sentinels: readonly string[];
  /** The name the sentinels know the primary by. */
  readonly name: string;
  /** The port of the primary, as the sentinels name it now. */
  primaryPort(): number;
  /** Kills the data node on `port` with SIGKILL. */
  killNode(port: number): Promise<void>;
  /** Starts the killed data node on `port` again, as a replica of the primary the sentinels name, and waits until it is in sync and every sentinel counts it. */
  restartNode(port: number): Promise<void>;
  /** The replica's port (as started). */
  readonly replicaPort: number;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) the data node on `port`. */
  freezeNode(port: number, frozen: boolean): void;
  /** Waits until the sentinels name a primary other than `port` and it answers as a primary. */
  waitPromoted(oldPort: number, maxMs?: number): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts a primary, its replica and three sentinels (`down-after-milliseconds` `downAfterMs`, quorum 2), and
 * waits until every sentinel knows the replica and the other sentinels.
 */
export const startSentinels = async (o: { readonly downAfterMs?: number } = {}): Promise<TestSentinels> => {
  const dir = await mkdtemp(path.join(tmpdir(), "voar-sentinel-"));
  const name = "voar-primary";
  const procs: { port: number; proc: ChildProcess }[] = [];
  const stop = async () => {
    await Promise.all(procs.map((p) => kill(p.proc)));
    await rm(dir, { recursive: true, force: true });
  };
  const data = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const sentinelPorts: number[] = [];
  let replicaPort = 0;
  try {
    const primary = await freePort();
    procs.push({ port: primary, proc: startServer(["--port", String(primary), ...data], dir) });
    await waitFor("the primary did not answer", () => cli(primary, "ping").stdout.trim() === "PONG", 10_000);
    const replica = (replicaPort = await freePort());
    procs.push({ port: replica, proc: startServer(["--port", String(replica), "--replicaof", "127.0.0.1", String(primary), ...data], dir) });
    await waitFor("the replica did not sync", () => cli(replica, "info", "replication").stdout.includes("master_link_status:up"), 10_000);
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const conf = path.join(dir, `sentinel-${port}.conf`);
      await writeFile(
        conf,
        [
          `port ${port}`,
          "bind 127.0.0.1",
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${primary} 2`,
          `sentinel down-after-milliseconds ${name} ${o.downAfterMs ?? 1_000}`,
          `sentinel failover-timeout ${name} 5000`,
          `sentinel parallel-syncs ${name} 1`,
          "",
        ].join("\n"),
      );
      procs.push({ port, proc: spawn("redis-server", [conf, "--sentinel"], { cwd: dir, stdio: "ignore" }) });
      sentinelPorts.push(port);
    }
    await waitFor(
      "the sentinels did not find each other and the replica",
      () =>
        sentinelPorts.every((p) => {
          const info = cli(p, "sentinel", "master", name).stdout;
          const lines = info.split("\n").map((l) => l.trim());
          const field = (k: string) => lines[lines.indexOf(k) + 1];
          return field("num-slaves") === "1" && field("num-other-sentinels") === "2";
        }),
      20_000,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  const primaryPort = () => Number(cli(sentinelPorts[0]!, "sentinel", "get-master-addr-by-name", name).stdout.trim().split("\n")[1]);
  return {
    sentinels: sentinelPorts.map((p) => `127.0.0.1:${p}`),
    name,
    primaryPort,
    async killNode(port) {
      const p = procs.find((x) => x.port === port);
      if (p) await kill(p.proc);
    },
    async restartNode(port) {
      const p = procs.find((x) => x.port === port);
      if (!p || (p.proc.exitCode === null && p.proc.signalCode === null)) return;
      const primary = primaryPort();
      (p as { proc: ChildProcess }).proc = startServer(["--port", String(port), "--replicaof", "127.0.0.1", String(primary), ...data], dir);
      await waitFor(`the restarted node ${port} did not sync`, () => cli(port, "info", "replication").stdout.includes("master_link_status:up"), 15_000);
      await waitFor(
        "the sentinels did not count the restarted replica",
        () =>
          sentinelPorts.every((sp) => {
            const lines = cli(sp, "sentinel", "replicas", name).stdout.split("\n").map((l) => l.trim());
            // Each replica: a block of field/value lines; the restarted one listed, and not down.
            const at = lines.findIndex((l, i) => l === "port" && lines[i + 1] === String(port));
            if (at < 0) return false;
            const flags = lines[lines.indexOf("flags", at) + 1] ?? "";
            return flags === "slave";
          }),
        20_000,
      );
    },
    replicaPort,
    freezeNode(port, frozen) {
      procs.find((x) => x.port === port)?.proc.kill(frozen ? "SIGSTOP" : "SIGCONT");
    },
    async waitPromoted(oldPort, maxMs = 20_000) {
      let port = oldPort;
      await waitFor(
        "the sentinels did not promote the replica",
        () => {
          port = primaryPort();
          return port !== oldPort && cli(port, "role").stdout.startsWith("master");
        },
        maxMs,
      );
      return port;
    },
    stop,
  };
};
