import { gzipSync } from "node:zlib";
import { miniflareOptions, readWranglerToml } from "../../../scripts/wrangler-miniflare.js";
import type { ContractTarget } from "../../contract/contract-target.js";
import { bundleWorkerd } from "./bundle-workerd.js";
import { loadMiniflare, type MiniflareInstance } from "./edge-runtimes.js";
import { socketTarget } from "./runtime-process.js";

/** A Worker of wrangler.toml running in miniflare 3 (workerd), on a socket on 127.0.0.1. */
export interface WorkerdServer {
  readonly mf: MiniflareInstance;
  readonly baseUrl: string;
  readonly target: ContractTarget;
}

let bundled: Promise<string> | undefined;

/** The bundle as deployed (`bundle:workerd`), made once per test file; its size is printed once. */
export const workerdBundle = (): Promise<string> =>
  (bundled ??= bundleWorkerd().then((text) => {
    console.log(`workerd bundle: ${(Buffer.byteLength(text) / 1024).toFixed(0)} KB raw, ${(gzipSync(text, { level: 9 }).length / 1024).toFixed(0)} KB gzip`);
    return text;
  }));

/**
 * Starts the Worker as wrangler.toml declares it (vars, compatibility, the SEARCHES Durable Object and its
 * SQLite migration), with `bindings` added the way secrets would be. With `persist`, Durable Object storage
 * lives in that folder, so a later instance on the same folder sees what this one stored.
 */
export const startWorkerd = async (bindings: Readonly<Record<string, string>>, persist?: string): Promise<WorkerdServer> => {
  const toml = await readWranglerToml();
  const { Miniflare } = loadMiniflare();
  const mf = new Miniflare({
    ...miniflareOptions(toml, { script: await workerdBundle(), bindings, ...(persist === undefined ? {} : { durableObjectsPersist: persist }) }),
    host: "127.0.0.1",
    port: 0,
    // The worker's request logs: drained, not echoed into the test report; its errors still show.
    handleRuntimeStdio: (stdout, stderr) => {
      stdout.resume();
      stderr.pipe(process.stderr);
    },
  });
  const baseUrl = new URL(await mf.ready).origin;
  return { mf, baseUrl, target: socketTarget(baseUrl) };
};
