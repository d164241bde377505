import { listEnvelope } from "@voar/core";
import type { Context, Handler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import type { Clock } from "../clock.js";
import { parseJsonText, readBodyText } from "../http/read-body.js";
import type { Logger } from "../logging/logger.js";
import type { AlertService } from "./alert-service.js";
import { toWireAlert, toWireDelivery, toWireSecret } from "./alert-wire-of.js";

/** What the `/Alertas` handlers share. */
export interface AlertRouteDeps {
  readonly alerts: AlertService;
  readonly clock: Clock;
  readonly bodyLimitBytes: number;
}

/** The SSE stream's settings. */
export interface AlertStreamSettings {
  readonly keepAliveMs: number;
  readonly retryMs: number;
  readonly logger: Logger;
  readonly shutdown?: { add(hook: () => void): () => void } | undefined;
  /** Counts the stream among the instance's SSE streams: refused (429) at admission control's cap. */
  readonly openStream?: (() => () => void) | undefined;
}

const tenantOf = (c: Context<AppEnv>) => c.get("principal").tenant;
const answer = <D extends object>(c: Context<AppEnv>, data: readonly D[], status: 200 | 201 = 200) => c.json(listEnvelope(data, c.get("requestId")), status, { "Cache-Control": "no-store" });

/**
 * The handlers of the price watches' routes: `POST /Alertas` (a new watch, 201), `GET /Alertas` (the tenant's),
 * `GET`/`DELETE /Alertas/{id}`, `GET /Alertas/{id}/Entregas` (its deliveries), `GET`/`POST /Alertas/Segredo` (the
 * webhook secret; POST rotates it). Every answer is the API's envelope, its items in `Data`; every error the
 * error envelope.
 */
export const alertHandlers = (deps: AlertRouteDeps) => {
  const now = () => deps.clock.now();
  const create: Handler<AppEnv> = async (c) => {
    const body = parseJsonText(await readBodyText(c.req.raw, deps.bodyLimitBytes));
    const record = await deps.alerts.create(tenantOf(c), body);
    c.header("Location", `${c.req.path}/${record.id}`);
    return answer(c, [toWireAlert(record, now())], 201);
  };
  const list: Handler<AppEnv> = async (c) => answer(c, (await deps.alerts.list(tenantOf(c))).map((w) => toWireAlert(w, now())));
  const get: Handler<AppEnv> = async (c) => answer(c, [toWireAlert(await deps.alerts.get(tenantOf(c), c.req.param("id") ?? ""), now())]);
  const remove: Handler<AppEnv> = async (c) => answer(c, [toWireAlert(await deps.alerts.remove(tenantOf(c), c.req.param("id") ?? ""), now())]);
  const deliveries: Handler<AppEnv> = async (c) => answer(c, (await deps.alerts.deliveries(tenantOf(c), c.req.param("id") ?? "")).map(toWireDelivery));
  const secret: Handler<AppEnv> = async (c) => answer(c, [toWireSecret(await deps.alerts.secret(tenantOf(c)), now())]);
  const rotate: Handler<AppEnv> = async (c) => answer(c, [toWireSecret(await deps.alerts.rotate(tenantOf(c)), now())]);
  return { create, list, get, remove, deliveries, secret, rotate };
};

const encoder = new TextEncoder();

/** `Last-Event-ID` as a sequence number; anything else counts as 0 (every alert kept). */
const lastSeqOf = (header: string | undefined): number => (header !== undefined && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : 0);

/**
 * `GET /Alertas/Stream`: the tenant's alerts as Server-Sent Events, the alternative to webhooks: one event per
 * alert (`id:` its sequence number, `event: alerta`, `data:` the same body a webhook gets), a comment line after a
 * quiet while. `Last-Event-ID` replays the alerts after it (the latest few hundred are kept); without it, the
 * kept ones first. Never ends by itself; at shutdown it ends so the client reconnects elsewhere.
 */
export const alertStreamHandler =
  (alerts: AlertService, settings: AlertStreamSettings): Handler<AppEnv> =>
  (c) => {
    const leave = settings.openStream?.() ?? (() => undefined);
    const abort = new AbortController();
    const unhooked = settings.shutdown?.add(() => abort.abort()) ?? (() => undefined);
    const unhook = () => (unhooked(), leave());
    const updates = alerts.updates(tenantOf(c), lastSeqOf(c.req.header("last-event-id")), settings.keepAliveMs, abort.signal);
    let started = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(`retry: ${settings.retryMs}\n\n`));
          return;
        }
        try {
          const step = await updates.next();
          if (step.done) {
            unhook();
            controller.close();
            return;
          }
          controller.enqueue(
            encoder.encode(step.value.kind === "keep-alive" ? ": keep-alive\n\n" : `id: ${step.value.record.seq}\nevent: alerta\ndata: ${JSON.stringify(step.value.record.event)}\n\n`),
          );
        } catch (e) {
          // The store went away (or a bug): the stream ends; the client reconnects with its Last-Event-ID.
          settings.logger.log({ level: "info", msg: "alert.stream_ended", requestId: c.get("requestId"), error: e instanceof Error ? e.message : String(e) });
          unhook();
          abort.abort();
          controller.close();
        }
      },
      async cancel() {
        unhook();
        abort.abort();
        await updates.return(undefined);
      },
    });
    return c.body(body, 200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" });
  };
