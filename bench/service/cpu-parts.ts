/**
 * Where a process's CPU went, by part of a search: a V8 CPU profile's samples, each given to the part of the
 * nearest frame (from the sampled function up its callers) whose script belongs to one. Frames of no part (V8's
 * builtins such as `JSON.parse`, effect's data structures and runtime, Node's streams) pass the sample up to their
 * caller, so `JSON.parse` of an upstream answer counts as upstream reading and a red-black tree's insert as engine
 * work; samples with no classified caller at all (the event loop's own, sockets' reads and timers) are "Node I/O
 * and event loop"; the garbage collector's are a part of their own.
 */

/** The parts of a search's CPU, in the order they are printed. */
export const CPU_PARTS = [
  "upstream I/O and reading",
  "normalization",
  "engine",
  "store writes and reads",
  "views and pages",
  "HTTP (framework, routes, node:http)",
  "logging and telemetry",
  "garbage collection",
  "Node I/O and event loop",
] as const;

export type CpuPart = (typeof CPU_PARTS)[number];

/** The part of a script, or undefined when its frames pass their samples to their caller. */
export const partOfUrl = (url: string): CpuPart | undefined => {
  if (url === "") return undefined;
  if (/\/logging\/|request-log|\/telemetry\/|node-metrics|node-tracing|prom-client|@opentelemetry|pino|answer-meter/.test(url)) return "logging and telemetry";
  if (/packages\/core\/src\/upstream\//.test(url)) return "normalization";
  if (/packages\/core\/src\/(engine|domain|errors)\//.test(url)) return "engine";
  if (/packages\/core\/src\/(views|envelope)\/|serialized-answer|parted-answer|search-change/.test(url)) return "views and pages";
  if (/session-store|snapshot-cache|store-sync|store-availability|\/redis\/|ioredis|answer-store|offers-expiry|offer-validity/.test(url)) return "store writes and reads";
  if (/packages\/http-adapter\/src\/|undici|hono-edge\/src\/sources\//.test(url)) return "upstream I/O and reading";
  if (/hono-edge\/src\/search\//.test(url)) return "engine";
  if (/[/@]hono\/|node-server|hono-edge\/src\/(http|middleware|routes|app|auth|limits|entries|errors)\/|node:_http_|node:http/.test(url)) return "HTTP (framework, routes, node:http)";
  return undefined;
};

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

/** A V8 CPU profile (`Profiler.stop`'s, or a `.cpuprofile` file's). */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Milliseconds of CPU per part (idle time left out), over the profile. */
export const cpuByPart = (profile: CpuProfile): Record<CpuPart, number> => {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const partOfNode = new Map<number, CpuPart | "idle">();
  const classify = (id: number): CpuPart | "idle" => {
    const known = partOfNode.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    const name = n.callFrame.functionName;
    let part: CpuPart | "idle" | undefined =
      name === "(idle)" ? "idle" : name === "(garbage collector)" ? "garbage collection" : partOfUrl(n.callFrame.url);
    if (part === undefined) {
      const up = parent.get(id);
      part = up === undefined ? "Node I/O and event loop" : classify(up);
      if (part === "idle") part = "Node I/O and event loop";
    }
    partOfNode.set(id, part);
    return part;
  };
  const out = Object.fromEntries(CPU_PARTS.map((p) => [p, 0])) as Record<CpuPart, number>;
  for (let i = 0; i < profile.samples.length; i++) {
    const part = classify(profile.samples[i]!);
    if (part !== "idle") out[part] += (profile.timeDeltas[i] ?? 0) / 1000;
  }
  return out;
};
