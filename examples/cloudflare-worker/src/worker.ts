// #region worker
import voar, { AnswerObject, SearchObject, type WorkerEnv } from "@voar/hono-edge/workerd";

/**
 * The Durable Object classes of wrangler.toml: `SEARCHES`, one per search identity; `ANSWERS`, one per cached
 * upstream answer (the answer cache every agency's searches share, on an upstream).
 */
export { AnswerObject, SearchObject };

/** One's own Worker: its own routes first, then the Voar service (its API under VOAR_BASE_PATH, default /api). */
export default {
  async fetch(request: Request, env: WorkerEnv, ctx: Parameters<typeof voar.fetch>[2]): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/") return Response.json({ service: "my-voar-worker", search: "POST /api/ConsultaAereo/Consultar" });
    return voar.fetch(request, env, ctx);
  },
};
// #endregion worker
