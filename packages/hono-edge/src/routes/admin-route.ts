import { AIRLINES, airlineById } from "@voar/core";
import type { Handler } from "hono";
import * as z from "zod";
import type { AppEnv } from "../app/app-env.js";
import { InvalidRequest } from "../errors/service-errors.js";
import { readJsonBody } from "../http/read-body.js";
import type { Clock } from "../clock.js";
import type { Logger } from "../logging/logger.js";
import type { PaganteSettings } from "../settings/pagante-settings.js";

/** The body of `PUT /admin/pagante`: one airline's switch. */
export const PaganteUpdateSchema = z
  .strictObject({
    IdCia: z.literal(AIRLINES.map((a) => a.id) as [number, ...number[]]).meta({ description: "Id da companhia (1 LATAM, 2 GOL, ...)." }),
    Pagante: z.boolean().meta({ description: "true: voos pagantes aparecem; false: só voos com milhas." }),
  })
  .meta({ id: "PaganteAtualizacao" });

/** The answer of `GET`/`PUT /admin/pagante`: every airline's switch. */
export const PaganteListSchema = z
  .strictObject({
    Success: z.literal(true),
    RequestId: z.string(),
    Pagante: z.array(z.strictObject({ IdCia: z.int(), Nome: z.string(), Iata: z.string(), Pagante: z.boolean() })),
  })
  .meta({ id: "PaganteLista" });

const MESSAGES: Readonly<Record<string, string>> = {
  IdCia: `IdCia deve ser o id de uma companhia: ${AIRLINES.map((a) => `${a.id} ${a.name}`).join(", ")}.`,
  Pagante: "Pagante deve ser true ou false.",
};

const listOf = async (pagante: PaganteSettings, requestId: string): Promise<z.infer<typeof PaganteListSchema>> => ({
  Success: true,
  RequestId: requestId,
  Pagante: (await pagante.list()).map((p) => {
    const airline = airlineById(p.airlineId);
    return { IdCia: p.airlineId, Nome: airline?.name ?? "", Iata: airline?.iata ?? "", Pagante: p.enabled };
  }),
});

/** `GET /admin/pagante`: every airline's Pagante switch. */
export const getPaganteHandler =
  (pagante: PaganteSettings): Handler<AppEnv> =>
  async (c) =>
    c.json(await listOf(pagante, c.get("requestId")));

/**
 * `PUT /admin/pagante` `{ "IdCia": 1, "Pagante": false }`: changes one airline's switch at run time, for every
 * instance sharing the settings. Searches started afterwards honour it (the switch is part of a search's key, so
 * the next request is a new search). One audit line per change (`admin.pagante`): who (the admin key's name,
 * never the key), when, the airline, its switch before and after.
 */
export const putPaganteHandler =
  (pagante: PaganteSettings, bodyLimitBytes: number, logger: Logger, clock: Clock): Handler<AppEnv> =>
  async (c) => {
    const parsed = PaganteUpdateSchema.safeParse(await readJsonBody(c.req.raw, bodyLimitBytes));
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "body")))];
      throw new InvalidRequest(fields.map((f) => ({ Campo: f, Mensagem: MESSAGES[f] ?? "O corpo deve ser { IdCia, Pagante }." })));
    }
    const before = await pagante.set(parsed.data.IdCia, parsed.data.Pagante);
    logger.log({
      level: "info",
      msg: "admin.pagante",
      requestId: c.get("requestId"),
      who: c.get("admin"),
      at: new Date(clock.now()).toISOString(),
      airlineId: parsed.data.IdCia,
      before,
      after: parsed.data.Pagante,
    });
    return c.json(await listOf(pagante, c.get("requestId")));
  };
