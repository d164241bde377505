import voar, { SearchObject, SharedObject, type WorkerEnv } from "@voar/hono-edge/workerd";

/**
 * The Durable Object classes of wrangler.toml: `SEARCHES`, one per search identity; `SHARED`, what the searches
 * share about an upstream (each cached answer, each airline's breaker).
 */
export { SearchObject, SharedObject };

/** One's own Worker: its own routes first, then the Voar service (its API under VOAR_BASE_PATH, default /api). */
export default {
  async fetch(request: Request, env: WorkerEnv, ctx: Parameters<typeof voar.fetch>[2]): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/") return Response.json({ service: "my-voar-worker", search: "POST /api/ConsultaAereo/Consultar" });
    return voar.fetch(request, env, ctx);
  },
};
