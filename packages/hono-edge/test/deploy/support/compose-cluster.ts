/**
 * compose.yaml's cluster profile without Docker: each Redis node runs the command the file gives it, as its own
 * redis-server process on a loopback address of its own (127.x.y.2 to .7, the port the file's nodes use; it
 * announces that address, as a container's own would be), so that
 * the node names of the file resolve to one address each, as compose's network resolves them; and the init
 * service's script runs as compose runs it (`sh -c`, `$$` read as `$`), with `getent` and `redis-cli` answering
 * for those names. `redis-server` and `redis-cli` must be on PATH.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { parse } from "yaml";
import { interpolate, REPO_DIR } from "./deploy-files.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface RawService {
  readonly command?: string[];
  readonly entrypoint?: string[];
  readonly profiles?: string[];
}

/** The profile's nodes, started, and the cluster formed by the file's init script (run twice: the second does nothing). */
export const composeCluster = async () => {
  const raw = parse(readFileSync(path.join(REPO_DIR, "compose.yaml"), "utf8"), { merge: true }) as { services: Record<string, RawService> };
  const nodes = Object.entries(raw.services).filter(([, s]) => s.profiles?.includes("cluster") && s.command?.join(" ").includes("--cluster-enabled yes"));
  expect(nodes.length).toBe(6);
  // A /24 of loopback addresses nobody else here uses: each node listens on the file's port there.
  const net = `127.${10 + Math.floor(Math.random() * 240)}.${Math.floor(Math.random() * 250)}`;
  const addressOf = new Map(nodes.map(([name], i) => [name, `${net}.${i + 2}`]));
  const dir = mkdtempSync(path.join(tmpdir(), "voar-compose-cluster-"));
  const procs: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(procs.filter((p) => p.exitCode === null && p.signalCode === null).map((p) => (p.kill("SIGKILL"), once(p, "exit"))));
    rmSync(dir, { recursive: true, force: true });
  };
  const resolve = (text: string) => text.replace(/redis-node-\d+/g, (name) => addressOf.get(name) ?? name);
  try {
    for (const [name, s] of nodes) {
      const [command, ...args] = s.command!;
      expect(command).toBe("redis-server");
      const home = path.join(dir, name);
      mkdirSync(home);
      // A container's connections come from its own address; on one machine's loopback they would come from
      // 127.0.0.1 unless the node says which address is its own.
      const address = addressOf.get(name)!;
      procs.push(spawn("redis-server", [...args, "--bind", address, "--cluster-announce-ip", address, "--port", "6379", "--dir", home], { stdio: "ignore" }));
    }
    for (const address of addressOf.values()) {
      for (let i = 0; spawnSync("redis-cli", ["-h", address, "-p", "6379", "ping"], { encoding: "utf8" }).stdout.trim() !== "PONG"; i++) {
        if (i > 100) throw new Error(`the node on ${address} did not answer`);
        await sleep(50);
      }
    }
    // Stand-ins for what the container's network gives the script: names that resolve to the nodes' addresses.
    const bin = path.join(dir, "bin");
    mkdirSync(bin);
    const names = [...addressOf];
    const hosts = names.map(([name, address]) => `  ${name}) echo "${address}    ${name}";;`).join("\n");
    writeFileSync(path.join(bin, "getent"), `#!/bin/sh\ncase "$2" in\n${hosts}\n  *) exit 2;;\nesac\n`);
    const real = spawnSync("sh", ["-c", "command -v redis-cli"], { encoding: "utf8" }).stdout.trim();
    const renames = names.map(([name, address]) => `    ${name}) a=${address};;`).join("\n");
    writeFileSync(path.join(bin, "redis-cli"), `#!/bin/sh\nfor a do\n  shift\n  case "$a" in\n${renames}\n  esac\n  set -- "$@" "$a"\ndone\nexec ${real} "$@"\n`);
    for (const f of ["getent", "redis-cli"]) chmodSync(path.join(bin, f), 0o755);
    const init = raw.services["redis-cluster-init"]!;
    expect(init.entrypoint).toEqual(["sh", "-c"]);
    const script = interpolate(init.command!.join(" "), {});
    const run = () => spawnSync("sh", ["-c", script], { encoding: "utf8", env: { ...process.env, PATH: `${bin}:${process.env["PATH"] ?? ""}` }, timeout: 60_000 });
    const formed = run();
    expect(formed.status, `${formed.stdout}${formed.stderr}`).toBe(0);
    expect(formed.stdout).toContain("[OK] All 16384 slots covered");
    for (const address of addressOf.values()) {
      for (let i = 0; !spawnSync("redis-cli", ["-h", address, "-p", "6379", "cluster", "info"], { encoding: "utf8" }).stdout.includes("cluster_state:ok"); i++) {
        if (i > 200) throw new Error(`the node on ${address} did not see the cluster formed`);
        await sleep(50);
      }
    }
    // A restart of the profile runs the script again: it leaves the formed cluster alone.
    const again = run();
    expect(again.status, `${again.stdout}${again.stderr}`).toBe(0);
    expect(again.stdout).not.toContain("Performing hash slots allocation");
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    /** The file's node names in `text` replaced by their addresses. */
    resolve,
    /** Keys matching `pattern` on every node that is a primary. */
    keys: async (pattern: string) => {
      let n = 0;
      for (const address of addressOf.values()) {
        if (!spawnSync("redis-cli", ["-h", address, "-p", "6379", "role"], { encoding: "utf8" }).stdout.startsWith("master")) continue;
        n += spawnSync("redis-cli", ["-h", address, "-p", "6379", "--scan", "--pattern", pattern], { encoding: "utf8" }).stdout.split("\n").filter((l) => l !== "").length;
      }
      return n;
    },
    stop,
  };
};
