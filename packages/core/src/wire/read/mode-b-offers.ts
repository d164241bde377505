/**
 * Maps a Mode B result item (OTA comparison, and every single-airline answer) to offers: each element of
 * `Ida` (outbound) and `Volta` (return) is one offer, and each of its `Outros` one more offer for the same
 * flight from another seller.
 *
 * Money (see docs/wire-semantics.md): `ValorTotalComTaxa` is the total and `ValorTotalTaxas` its taxes and
 * fees (all passengers), kept signed: a seller's discount (`Taxas.Servico` < 0) lowers them, and may make
 * them negative. `ValorAdulto`, `ValorCrianca`, `ValorBebe` are ONE passenger's fare without taxes;
 * `Taxas.Embarque`/`Servico` one adult's fees, `EmbarqueChd`/`ServicoChd` one child's. The airline's own
 * price is `ValorAdultoNaCia` (one adult, without taxes) scaled to the booking by the offer's own ratio
 * `ValorTotal / ValorAdulto` (the passenger count when that ratio is unknown), plus the taxes without the
 * seller's service fee (the airline does not charge it): real answers' `PercentualEconomia` is exactly the
 * saving against that sum. The fare family is `Tarifas[].Tipo`, the bags `BagagensInclusas` (the offer's,
 * else its fare family's). `Outros` follow `ota-alternatives.ts`.
 */
import type { Airline } from "../../domain/airline.js";
import type { Carrier, Direction, Leg } from "../../domain/itinerary.js";
import { flightKey } from "../../domain/itinerary.js";
import { centavosFromDecimal } from "../../domain/money.js";
import type { MilesPrice, Offer, PassengerFare } from "../../domain/offer.js";
import { baggageFromLines } from "./baggage.js";
import type { Passengers } from "../../domain/query.js";
import { carrierOf, findAirline, parseFlightDesignator } from "./airline-identity.js";
import { searchTokenOf } from "./envelope-schema.js";
import { buildItinerary, buildLeg } from "./itinerary-builder.js";
import { readItem, type SkipLog } from "./item-reader.js";
import { upstreamModeBOfferSchema, upstreamModeBResultSchema, type UpstreamModeBOffer } from "./mode-b-schema.js";
import { offerId } from "./offer-ids.js";
import { buildFares, type FareShare } from "./passenger-fares.js";
import type { ReadContext } from "./read-context.js";
import { alternativeOffers, fareOptionOffers } from "./ota-alternatives.js";
import { airlineSeller, otaSeller } from "./seller.js";

/** Mode B answers name no currency; every deployment seen prices in reais. */
const CURRENCY = "BRL";

interface ResultFacts {
  readonly ctx: ReadContext;
  readonly log: SkipLog;
  readonly passengers: Passengers;
  readonly searchToken: string | undefined;
}

const money = (amount: number) => ({ amount, currency: CURRENCY });
/** Signed centavos of an optional wire amount: a negative amount (a discount) stays negative. */
const cents = (v: number | null | undefined) => (typeof v === "number" ? centavosFromDecimal(v) : 0);

const legsOf = (r: ResultFacts, o: UpstreamModeBOffer, fallback: Carrier | undefined): Leg[] | string => {
  const legs: Leg[] = [];
  for (const [k, voo] of o.Voos.entries()) {
    const designator = parseFlightDesignator(voo.Numero);
    if (!designator) return `campo Voos[${k}].Numero inválido`;
    const carrier = designator.carrier
      ? carrierOf(designator.carrier, designator.carrier === fallback?.iata ? fallback.name : undefined)
      : fallback;
    if (!carrier) return `companhia aérea de Voos[${k}] ausente`;
    legs.push(
      buildLeg(r.ctx.airports, {
        carrier,
        operatingCarrier: carrier,
        flightNumber: designator.number,
        origin: voo.Origem,
        destination: voo.Destino,
        departure: voo.Saida,
        arrival: voo.Chegada,
        givenMinutes: voo.Duracao,
        durationText: voo.Tempo,
        cabin: voo.ClasseStr?.trim() || "Economica",
      }),
    );
  }
  return legs;
};

const sharesOf = (o: UpstreamModeBOffer, p: Passengers): FareShare[] => {
  const t = o.Taxas;
  const rows: FareShare[] = [
    { type: "ADT", count: p.adults, baseWeight: (o.ValorAdulto ?? 0) * p.adults, taxWeight: ((t?.Embarque ?? 0) + (t?.Servico ?? 0)) * p.adults },
    { type: "CHD", count: p.children, baseWeight: (o.ValorCrianca ?? 0) * p.children, taxWeight: ((t?.EmbarqueChd ?? 0) + (t?.ServicoChd ?? 0)) * p.children },
    { type: "INF", count: p.infants, baseWeight: (o.ValorBebe ?? 0) * p.infants, taxWeight: 0 },
  ];
  return rows.filter((r) => r.count > 0);
};

/** Largest believable booking-to-adult ratio: 9 seated passengers plus their infants, with room to spare. */
const MAX_BOOKING_RATIO = 20;

/** `airlineTaxes`: the offer's taxes without the seller's service fee, which the airline does not charge. */
const airlinePriceOf = (o: UpstreamModeBOffer, p: Passengers, total: number, airlineTaxes: number): number => {
  const company = o.ValorAdultoNaCia ?? 0;
  if (company <= 0) return total;
  const ratio = (o.ValorTotal ?? 0) / (o.ValorAdulto ?? 0);
  const factor = Number.isFinite(ratio) && ratio > 0 && ratio <= MAX_BOOKING_RATIO ? ratio : Math.max(1, p.adults);
  const price = centavosFromDecimal(company * factor) + airlineTaxes;
  return Number.isSafeInteger(price) && price > 0 ? price : total;
};

/** The offer's fare family: the first `Tarifas[]` member naming one. */
const fareFamilyOf = (o: UpstreamModeBOffer) => (o.Tarifas ?? []).find((t) => t?.Tipo?.trim())?.Tipo?.trim();

/** The bags: the offer's `BagagensInclusas`, else its fare family's, at least `QtdBagagemInclusa` checked. */
const baggageOf = (o: UpstreamModeBOffer) => {
  const own = o.BagagensInclusas ?? [];
  const lines = own.length > 0 ? own : ((o.Tarifas ?? []).find((t) => (t?.BagagensInclusas ?? []).length > 0)?.BagagensInclusas ?? []);
  return baggageFromLines(lines, o.QtdBagagemInclusa ?? 0);
};

/** The seller's service fee per passenger type (`Taxas.Servico` per adult, `ServicoChd` per child), signed. */
const withServiceFees = (fares: readonly PassengerFare[], o: UpstreamModeBOffer): PassengerFare[] =>
  fares.map((f) => {
    const each = f.type === "ADT" ? cents(o.Taxas?.Servico) : f.type === "CHD" ? cents(o.Taxas?.ServicoChd) : 0;
    // One literal: `{ ...f, serviceFee }` would make an object of the slow (dictionary) kind, several times larger.
    return each === 0 ? f : { type: f.type, count: f.count, base: f.base, taxes: f.taxes, serviceFee: { amount: each * f.count, currency: f.taxes.currency } };
  });

const offersOf = (r: ResultFacts, o: UpstreamModeBOffer, direction: Direction, path: string): Offer[] => {
  const airline: Airline | undefined = findAirline(o.IdCia, o.Cia?.Id, o.CiaParceira?.Id, o.Cia?.Iata, o.CiaParceira?.Iata);
  const cia = o.Cia ?? o.CiaParceira;
  // A programme (Livelo) or the interline source flies nothing itself: the carrier is the one named beside it.
  const flying = airline?.kind === "airline" ? airline : undefined;
  const named = carrierOf(flying?.iata ?? cia?.Iata, flying?.name ?? cia?.Nome);
  const legs = legsOf(r, o, named);
  const [first, ...rest] = typeof legs === "string" ? [] : legs;
  if (!first) {
    r.log.note(path, typeof legs === "string" ? legs : "voos ausentes");
    return [];
  }
  const validatingCarrier = named ?? first.carrier;
  const known = airline ?? findAirline(first.carrier.iata);
  const itinerary = buildItinerary(r.ctx.airports, direction, [first, ...rest], o.Duracao, o.TempoTotalStr);
  const total = centavosFromDecimal(o.ValorTotalComTaxa);
  // Taxes never exceed the total (the fare cannot be negative), but a discount may make them negative.
  const taxes = Math.min(total, cents(o.ValorTotalTaxas));
  const shares = sharesOf(o, r.passengers);
  const fares = withServiceFees(buildFares(shares, total - taxes, taxes, CURRENCY), o);
  const serviceFee = fares.reduce((n, f) => n + (f.serviceFee?.amount ?? 0), 0);
  const airlinePrice = money(airlinePriceOf(o, r.passengers, total, taxes - serviceFee));
  const fareFamily = fareFamilyOf(o);
  const points = o.PontosAdulto;
  const miles: MilesPrice | undefined =
    typeof points === "number" && points >= 0
      ? {
          pointsAdult: Math.round(points),
          pointsChild: Math.max(0, Math.round(o.PontosCrianca ?? 0)),
          taxes: money(taxes),
          programme: known?.programme || validatingCarrier.name,
        }
      : undefined;
  const seller =
    otaSeller(o.Nome, o.Site, o.UrlPesquisa) ?? airlineSeller(validatingCarrier, known, miles ? known?.programme : undefined);
  const key = flightKey(itinerary);
  const searchToken = searchTokenOf(o) ?? r.searchToken ?? "";
  const main: Offer = {
    id: offerId(r.ctx.sourceId, o.Token, { seller, flightKey: key, miles }),
    flightKey: key,
    sourceId: r.ctx.sourceId,
    airlineId: known?.id ?? 0,
    validatingCarrier,
    seller,
    itinerary,
    fares,
    total: money(total),
    taxes: money(taxes),
    airlinePrice,
    ...(miles ? { miles } : {}),
    cabin: first.cabin,
    bookingOption: fareFamily ? `Tarifa ${fareFamily}` : miles ? "Emissão com milhas" : "Tarifa em dinheiro",
    ...(fareFamily ? { fareFamily } : {}),
    baggage: baggageOf(o),
    fareToken: o.Token ?? "",
    searchToken,
  };
  return [main, ...fareOptionOffers(main, o.Tarifas ?? [], shares), ...alternativeOffers(main, o.Outros ?? [], shares, path, r.log)];
};

const directions = [
  ["Ida", "outbound"],
  ["Volta", "return"],
] as const;

/** How many items a Mode B result item holds (its `Ida` and `Volta` offers), whether or not they can be read. */
export const modeBItemCount = (raw: unknown): number => {
  const parsed = upstreamModeBResultSchema.safeParse(raw);
  return parsed.success ? (parsed.data.Ida?.length ?? 0) + (parsed.data.Volta?.length ?? 0) : 0;
};

/**
 * The entries of one Mode B result item (`Data[i]`, at wire path `path`): how many offers each direction
 * lists, and the reading of each (`read("Ida", k)`: the offers of `Ida[k]`, unreadable ones left out and
 * noted). Passenger counts come from the item (`QntdAdulto`...), else from the query, else one adult.
 * Undefined when the item itself cannot be read (noted).
 */
export const modeBEntries = (
  raw: unknown,
  path: string,
  ctx: ReadContext,
  log: SkipLog,
  searchToken: string | undefined,
):
  | { readonly count: (member: "Ida" | "Volta") => number; readonly read: (member: "Ida" | "Volta", k: number, log?: SkipLog) => Offer[] }
  | undefined => {
  const result = readItem(upstreamModeBResultSchema, raw, path, log);
  if (!result) return undefined;
  const asked = ctx.query?.passengers;
  const count = (n: number | null | undefined, fallback: number) =>
    typeof n === "number" && n >= 0 ? Math.round(n) : fallback;
  const adults = count(result.QntdAdulto, asked?.adults ?? 1);
  const facts: ResultFacts = {
    ctx,
    log,
    passengers: {
      adults: adults > 0 ? adults : 1,
      children: count(result.QntdCrianca, asked?.children ?? 0),
      infants: count(result.QntdBebe, asked?.infants ?? 0),
    },
    searchToken: searchTokenOf(result) ?? searchToken,
  };
  const direction = (member: "Ida" | "Volta"): Direction => directions.find(([m]) => m === member)![1];
  return {
    count: (member) => result[member]?.length ?? 0,
    read: (member, j, entryLog = log) => {
      const at = `${path}.${member}[${j}]`;
      const offer = readItem(upstreamModeBOfferSchema, result[member]?.[j], at, entryLog);
      return offer ? offersOf(entryLog === log ? facts : { ...facts, log: entryLog }, offer, direction(member), at) : [];
    },
  };
};

/**
 * Reads the offers of one Mode B result item (`Data[i]`, at wire path `path`). Passenger counts come from
 * the item (`QntdAdulto`...), else from the query, else one adult. Unreadable offers are left out and noted.
 */
export const readModeBOffers = (
  raw: unknown,
  path: string,
  ctx: ReadContext,
  log: SkipLog,
  searchToken: string | undefined,
): Offer[] => {
  const entries = modeBEntries(raw, path, ctx, log, searchToken);
  if (!entries) return [];
  const offers: Offer[] = [];
  for (const [member] of directions) for (let j = 0; j < entries.count(member); j++) offers.push(...entries.read(member, j));
  return offers;
};
