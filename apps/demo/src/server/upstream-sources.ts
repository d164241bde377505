import type { SearchQuery, SearchSource } from "@voar/core";
import { createFanOutSources, createUpstreamSource } from "@voar/http-adapter";
import type { DemoSources } from "./demo-sources.js";
import type { UpstreamSettings } from "./demo-options.js";

/**
 * A real ConsultaAereo upstream as the demo's sources: the fan-out (one source per airline, so the page
 * shows each airline as it answers) for Mode A and single-airline searches, and one source asking the
 * upstream's own OTA comparison (Companhia 1300) for Mode B.
 */
export const upstreamSources = (upstream: UpstreamSettings): DemoSources => {
  const airlines = createFanOutSources({ baseUrl: upstream.baseUrl, credentials: upstream.credentials });
  const otas = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials: upstream.credentials, id: "upstream:otas", name: "OTAs do fornecedor" });
  const comparison: SearchSource = { ...otas, kind: "ota", serves: (q: SearchQuery) => q.mode.kind === "ota-comparison" };
  return {
    sources: [...airlines, comparison],
    backend: "fornecedor",
    failing: [],
    close: async () => {
      // The fan-out's sources share one pool: closing one closes it.
      await Promise.all([airlines[0]?.close(), otas.close()]);
    },
  };
};
