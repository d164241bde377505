/**
 * voar-server against the plain client it replaces, search by search, in real time: each Voar search (followed over
 * its SSE stream, as a page would) is paired with a plain client (log in, ask, poll the `LeaseId` every 10 s) on a
 * twin fake upstream drawing the same airline times (see `pacingTrial` of `@voar/testing`). Tells when each airline's
 * offers existed at each upstream, when each side showed them, and what each side asked of its upstream.
 */
import { AIRLINES, type SearchQuery } from "@voar/core";
import { lateness, serveOnNode, type PacingTrial } from "@voar/testing";

/** One airline's figures in one paired search. */
export interface PairedLateness {
  readonly label: string;
  readonly route: string;
  readonly airline: number;
  /** ms from the offers' existence to each side showing them (`Infinity`: never shown). */
  readonly ours: number;
  readonly plain: number;
  /** When the offers existed, ms from the search's start. */
  readonly existedAfter: number;
}

/** One paired search. */
export interface PairedSearch {
  readonly label: string;
  readonly route: string;
  /** Upstream requests each side sent for it (the plain client's login included; Voar's logins are counted apart). */
  readonly ours: number;
  readonly plain: number;
  /** ms from the start to each side's last answer (Completed). */
  readonly oursMs: number;
  readonly plainMs: number;
}

const AIRLINE_BY_NAME = new Map(AIRLINES.map((a) => [a.name, a.id]));

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u);

/** The fake upstreams of a trial on sockets, the twin's requests counted per search and the requests in flight per search watched. */
export const servedTrial = async (trial: PacingTrial) => {
  const leaseOf = new Map<string, string>();
  const spent = new Map<string, number>();
  const inFlight = new Map<string, number>();
  let mostInFlight = 0;
  let logins = 0;
  const searchKey = (body: Record<string, unknown>) =>
    typeof body["LeaseId"] === "string" ? leaseOf.get(body["LeaseId"]) : `${String(body["Origem"])}-${String(body["Destino"])}|${String(body["Ida"])}`;
  const twin = await serveOnNode(async (request) => {
    if (!request.url.endsWith("/ConsultaAereo/Consultar")) {
      if (request.url.endsWith("/Token")) logins++;
      return trial.twin.app.fetch(request);
    }
    const text = await request.clone().text();
    let key: string | undefined;
    try {
      const body = JSON.parse(text) as unknown;
      key = isRecord(body) ? searchKey(body) : undefined;
    } catch {
      key = undefined;
    }
    if (key) {
      spent.set(key, (spent.get(key) ?? 0) + 1);
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      mostInFlight = Math.max(mostInFlight, inFlight.get(key)!);
    }
    try {
      const res = await trial.twin.app.fetch(request);
      const json = (await res.clone().json().catch(() => undefined)) as unknown;
      const lease = isRecord(json) && isRecord(json["ExErro"]) && isRecord(json["ExErro"]["Extensions"]) ? json["ExErro"]["Extensions"]["LeaseId"] : undefined;
      if (key && typeof lease === "string") leaseOf.set(lease, key);
      return res;
    } finally {
      if (key) inFlight.set(key, inFlight.get(key)! - 1);
    }
  });
  const plain = await serveOnNode(trial.plain.app.fetch);
  return {
    twinBaseUrl: `${twin.origin}/api`,
    plainBaseUrl: `${plain.origin}/api`,
    /** Requests the twin got for the search of `route` on `day` (`GRU-MIA`, `2027-01-10`). */
    spentOn: (route: string, day: string) => spent.get(`${route}|${day}`) ?? 0,
    /** The most requests of one search the twin was answering at once. */
    mostInFlight: () => mostInFlight,
    logins: () => logins,
    close: async () => {
      await twin.close();
      await plain.close();
    },
  };
};

/** One SSE stream of voar-server read to its end: when each airline's offers were all shown (`Date.now()`), and when it ended. */
export const followStream = async (baseUrl: string, key: string, body: Record<string, unknown>): Promise<{ readonly shown: Map<number, number>; readonly endedAt: number; readonly completed: boolean }> => {
  const open = () => fetch(`${baseUrl}/api/ConsultaAereo/Stream`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let res = await open();
  // A busy machine can make the service shed a new search (429 with Retry-After): a client waits as told and asks again.
  for (let tries = 0; res.status === 429 && tries < 5; tries++) {
    await res.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 1_000 * Number(res.headers.get("Retry-After") ?? 1)));
    res = await open();
  }
  if (!res.ok || !res.body) throw new Error(`stream answered HTTP ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const seen: { at: number; items: Map<number, number> }[] = [];
  let buffer = "";
  let completed = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n");
      if (data === "") continue;
      const envelope = JSON.parse(data) as { Completed?: boolean; Progresso?: { Fontes?: { Nome: string; Estado: string; Itens: number }[] } };
      const items = new Map<number, number>();
      for (const f of envelope.Progresso?.Fontes ?? []) {
        const id = AIRLINE_BY_NAME.get(f.Nome);
        if (id !== undefined && f.Estado === "concluida") items.set(id, f.Itens);
      }
      seen.push({ at: Date.now(), items });
      completed ||= envelope.Completed === true;
    }
  }
  const final = seen.at(-1)?.items ?? new Map<number, number>();
  const shown = new Map<number, number>();
  for (const [airline, n] of final) {
    const first = seen.find((s) => (s.items.get(airline) ?? -1) >= n);
    if (first && n > 0) shown.set(airline, first.at);
  }
  return { shown, endedAt: seen.at(-1)?.at ?? Date.now(), completed };
};

/** Runs one paired search: the plain client on the plain upstream, Voar's stream on voar-server over the twin. */
export const pairedSearch = async (o: {
  readonly trial: PacingTrial;
  readonly served: Awaited<ReturnType<typeof servedTrial>>;
  readonly voarBaseUrl: string;
  readonly voarKey: string;
  readonly account: { readonly username: string; readonly password: string };
  readonly origin: string;
  readonly destination: string;
  readonly day: string;
  readonly label: string;
}): Promise<{ readonly late: PairedLateness[]; readonly search: PairedSearch }> => {
  const query: SearchQuery = { origin: o.origin, destination: o.destination, departureDate: o.day, passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } };
  const request = { Origem: o.origin, Destino: o.destination, Ida: o.day, Adultos: 1, Criancas: 0, Bebes: 0, Companhia: -1 };
  const started = Date.now();
  const [{ plain, plainEnded }, ours] = await Promise.all([
    o.trial.runPlain({ fetch: globalThis.fetch, baseUrl: o.served.plainBaseUrl, ...o.account, request }, query).then((plain) => ({ plain, plainEnded: Date.now() })),
    followStream(o.voarBaseUrl, o.voarKey, request),
  ]);
  const route = `${o.origin}-${o.destination}`;
  const existedOurs = o.trial.existed("twin", query);
  const existedPlain = o.trial.existed("plain", query);
  const oursLate = lateness(existedOurs, ours.shown);
  const plainLate = lateness(existedPlain, plain.shown);
  return {
    late: [...oursLate].map(([airline, ms]) => ({ label: o.label, route, airline, ours: ms, plain: plainLate.get(airline) ?? Number.NaN, existedAfter: existedOurs.get(airline)! - started })),
    search: { label: o.label, route, ours: o.served.spentOn(route, o.day), plain: plain.requests, oursMs: ours.endedAt - started, plainMs: plainEnded - started },
  };
};

/** The p-quantile of numbers. */
export const quantile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? Number.NaN;
};
