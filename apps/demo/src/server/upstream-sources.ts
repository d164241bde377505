import { createFanOutSources, createUpstreamSource } from "@voar/http-adapter";
import { UpstreamSchema, upstreamSourcesFor, type UpstreamConfig } from "@voar/hono-edge";
import type { DemoSources } from "./demo-sources.js";
import type { UpstreamSettings } from "./demo-options.js";

/**
 * A real ConsultaAereo upstream as the demo's sources, through the service's own wiring (`upstreamSourcesFor`
 * of `@voar/hono-edge`): the fan-out (one source per airline, so the page shows each airline as it answers)
 * for Mode A and single-airline searches, and one source asking the upstream's own OTA comparison (Companhia
 * 1300) for Mode B. `configured` is the service configuration's `upstream` (from the `VOAR_UPSTREAM_*`
 * variables: allow-listed airlines, timeouts); without it, `upstream` alone with every airline.
 */
export const upstreamSources = (upstream: UpstreamSettings, configured?: UpstreamConfig): DemoSources => {
  // Without a configuration, the schema's defaults (OTA comparison on, breakers and request budget on).
  const settings: UpstreamConfig = configured ?? UpstreamSchema.parse({ url: upstream.baseUrl, ...upstream.credentials });
  const shared = upstreamSourcesFor(settings, { createFanOutSources, createUpstreamSource });
  return { sources: shared.sources, backend: "fornecedor", failing: [], close: () => shared.close() };
};
