import type { CalendarEnvelope } from "@voar/core";
import { vi } from "vitest";
import { post, type consultar } from "../support/app.js";

type App = Parameters<typeof consultar>[0];

/** The calendar route's path. */
export const CALENDARIO = "/api/ConsultaAereo/Calendario";

/** POSTs a calendar request and parses the envelope. */
export const calendario = async (app: App, body: unknown, headers: Record<string, string> = {}) => {
  const res = await post(app, CALENDARIO, body, headers);
  return { res, status: res.status, body: (await res.json()) as Omit<CalendarEnvelope, "Erro"> & { Erro: { Codigo: string; Campos?: { Campo: string; Mensagem: string }[] } | null } };
};

/** Polls a calendar by its Token, moving virtual time, until it completes. */
export const completedCalendar = async (app: App, token: string, stepMs = 100, maxMs = 600_000) => {
  let answer = await calendario(app, { Token: token });
  for (let t = 0; t < maxMs && !answer.body.Completed; t += stepMs) {
    await vi.advanceTimersByTimeAsync(stepMs);
    answer = await calendario(app, { Token: token });
  }
  return answer;
};
