/**
 * The floor of the CPU breakdown: plain Node, no framework, doing what a search must do at the least: its
 * upstream answers read over HTTP (node:http's client, the same bytes the service read) and parsed
 * (`JSON.parse`), its pages written by node:http (the same bytes the service answered, in the same number of
 * requests). Forked by `cpu-breakdown.ts`; set up over IPC (`setup`: the recorded upstream's origin, which
 * answers of it each search reads, the pages of each search), then answers `POST /` with `{ "s": search,
 * "i": request }`: the search's first request reads and parses its upstream answers, every request is
 * answered its page. `{ type: "cpu" }` answers the process's CPU time in ms.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

interface Setup {
  readonly type: "setup";
  readonly upstream: string;
  /** Per search, the indices of the upstream answers it reads. */
  readonly reads: readonly (readonly number[])[];
  /** Per search, the bytes of each of its answers, in order. */
  readonly pages: readonly (readonly string[])[];
}

let setup: { upstream: URL; reads: Setup["reads"]; pages: Buffer[][] } | undefined;

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One upstream answer read and parsed, as any client of the upstream must. */
const readUpstream = (index: number) =>
  new Promise<unknown>((resolve, reject) => {
    const req = http.request(new URL(`/b/${index}`, setup!.upstream), { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", async () => {
    const { s, i } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { s: number; i: number };
    if (i === 0) for (const index of setup!.reads[s] ?? []) await readUpstream(index);
    const body = setup!.pages[s]![i]!;
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": String(body.length) });
    res.end(body);
  });
});
const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));

process.on("message", (m: Setup | { type: "cpu" }) => {
  if (m.type === "setup") {
    setup = { upstream: new URL(m.upstream), reads: m.reads, pages: m.pages.map((p) => p.map((b) => Buffer.from(b))) };
    process.send!({ type: "ready" });
  } else {
    const cpu = process.cpuUsage();
    process.send!({ type: "cpu", cpuMs: (cpu.user + cpu.system) / 1000 });
  }
});
process.on("disconnect", () => process.exit(0));
process.send!({ type: "listening", port });
