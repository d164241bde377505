import { measureTopologies } from "../service/redis-topologies.js";
import { cell, type Row } from "../lib/report.js";
import type { Section } from "../run-all.js";

const S = "7. Redis topologies";

/** The sizes: 1,000 searches, 3 rounds on each topology; quick (CI, so it never rots): 200, one round. */
export const topologySizes = (quick: boolean) => (quick ? { searches: 200, rounds: 1 } : { searches: 1_000, rounds: 3 });

/** Section 7: the same load on one Redis (anchor) and on a 3-primary Redis Cluster, side by side. */
export const topologyRows = async (quick: boolean): Promise<Section> => {
  const f = await measureTopologies(topologySizes(quick));
  if (!f) return { title: S, rows: [{ section: S, figure: "one Redis against a Redis Cluster", value: "skipped: no redis-server on PATH", target: "info" }], notes: [] };
  const { single, cluster } = f;
  const n = `${cluster.searches.toLocaleString("en")} searches${cluster.searches < 1_000 ? " (quick mode: 1,000 in the full run)" : ""}`;
  const ratio = (read: (r: typeof single) => number) => `${(read(cluster) / read(single)).toFixed(2)}x`;
  const errors = (r: typeof single) => (r.errors === 0 ? "0" : `${r.errors}: ${Object.entries(r.errorKinds).map(([k, c]) => `${c}× ${k}`).join("; ")}`);
  const rows: Row[] = [
    {
      section: S,
      figure: `${n} at once on two instances, started over ${f.pollMs} ms, polled every ${f.pollMs} ms until complete (${cluster.rounds} round${cluster.rounds === 1 ? "" : "s"} each): poll p50, one Redis (anchor); 3-primary cluster`,
      value: `${cell(single.pollP50, "ms", 1)}; ${cell(cluster.pollP50, "ms", 1)}`,
      ratio: ratio((r) => r.pollP50.median),
      target: "info",
      verdict: "info",
    },
    { section: S, figure: "  poll p99", value: `${cell(single.pollP99, "ms", 1)}; ${cell(cluster.pollP99, "ms", 1)}`, ratio: ratio((r) => r.pollP99.median), target: "info", verdict: "info" },
    { section: S, figure: "  both instances' CPU time per search", value: `${cell(single.cpuPerSearchMs, "ms", 1)}; ${cell(cluster.cpuPerSearchMs, "ms", 1)}`, ratio: ratio((r) => r.cpuPerSearchMs.median), target: "info", verdict: "info" },
    {
      section: S,
      figure: "  errors (failed requests, answers other than 200 and 429); searches completed per round",
      value: [single, cluster].map((r) => `${errors(r)}; ${cell(r.completed, "", 0)} of ${r.searches}`).join(" — "),
      target: "0 errors",
      verdict: single.errors === 0 && cluster.errors === 0 ? "met" : "missed",
    },
  ];
  return {
    title: S,
    rows,
    notes: [
      `The same load on two \`voar-server\` instances (separate processes, their store's connections their own; the fake upstream in a third process, its airlines answering in ${f.latencyMs} ms), first on one redis-server, then on a Redis Cluster of 3 primaries with a replica each (\`VOAR_STORE_REDIS_CLUSTER\`), all on this machine's loopback: each search's keys in one slot, the caps' places in slots of their own and renewed by their owner, announcements on sharded pub/sub, and each search's completion confirmed by a replica (\`WAIT\`) before its owner forgets it. A warm-up round of up to 200 searches first on each. What a cluster buys (memory and throughput beyond one primary, failover) does not show on one machine whose two cores the instances saturate; the row shows what it costs the instances.`,
      "Errors: a `404 BUSCA_EXPIRADA` is a poll that reached its search after the search's TTL (15 s here) had run out since it completed: with the instances saturated (the six cluster nodes share the machine's two cores with them and with the clients), the cluster's poll p99 read 11-26 s in a full run of 2026-11-27, past that TTL. Full runs of this section on 2026-11-26 and 27 read, on the cluster, 2 x 404; 178 x 404 and 183 x 503 `INDISPONIVEL` (the store's probe unanswered while the nodes starved: the row that counts 503s as errors); 194 x 404; 8 x 404 (one Redis: 0, 0, 16 and 0 x 404). On a slower or busier machine one Redis expires searches too: the instances' CPU per search and the poll p99 (both in the rows) say how far the machine kept up. The failover tests of the integration tier (one search set, SIGKILL of its primary) are what the cluster's promise is checked by; this row shows what the topology costs on one machine, and a load a machine cannot follow reads as expired searches here as it does in section 3's 1,000-search row.",
    ],
  };
};
