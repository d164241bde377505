/**
 * Maps a Mode B result item (OTA comparison, and every single-airline answer) to offers: each element of
 * `Ida` (outbound) and `Volta` (return) is one offer, and each of its `Outros` one more offer for the same
 * flight from another seller.
 *
 * Money (see docs/wire-semantics.md): `ValorTotalComTaxa` is the total and `ValorTotalTaxas` its taxes and
 * fees (all passengers), kept signed. `Taxas.Servico` is the seller's fee as a PERCENTAGE of the fare without
 * taxes (`ValorTotal`), negative for a discount; it applies to cash fares (`ValorTotalTaxas = Embarque +
 * ValorTotal x Servico / 100`), not to award fares (`ValorTotalTaxas = Embarque`). The reader applies it
 * where the answer's own figures say it was applied, and keeps it as the offer's `discount`. `ValorAdulto`,
 * `ValorCrianca`, `ValorBebe` are ONE passenger's fare without taxes; `Taxas.Embarque` one adult's boarding
 * fees, `EmbarqueChd` one child's. The airline's price is `ValorAdultoNaCia` (one adult, without taxes)
 * scaled to the booking by the offer's own ratio `ValorTotal / ValorAdulto` (the passenger count when that
 * ratio is unknown), plus the offer's own taxes and fees: real answers' `PercentualEconomia` is exactly the
 * saving against that sum. `ValorAdultoNaCia` 0 (Livelo's award seats) is no airline price: 0, never the
 * offer's own. The fare family is `Tarifas[].Tipo`, the bags `BagagensInclusas` (the offer's, else its fare
 * family's). `Outros` follow `ota-alternatives.ts`.
 */
import type { Airline } from "../domain/airline.js";
import type { Carrier, Direction, Leg } from "../domain/itinerary.js";
import { flightKey } from "../domain/itinerary.js";
import { centavosFromDecimal } from "../domain/money.js";
import type { Baggage, MilesPrice, Offer, SellerDiscount } from "../domain/offer.js";
import { baggageFromLines } from "./baggage.js";
import type { Passengers } from "../query/query.js";
import { carrierOf, findAirline, parseFlightDesignator } from "./airline-identity.js";
import { searchTokenOf } from "./envelope-schema.js";
import { buildItinerary, buildLeg } from "./itinerary-builder.js";
import { readItem, type SkipLog } from "./item-reader.js";
import { upstreamModeBOfferSchema, upstreamModeBResultSchema, type UpstreamModeBOffer } from "./mode-b-schema.js";
import { offerId } from "./offer-ids.js";
import { buildFares, withServiceFee, type FareShare } from "./passenger-fares.js";
import type { ReadContext } from "./read-context.js";
import { alternativeOffers, fareOptionOffers } from "./ota-alternatives.js";
import { airlineSeller, otaSeller } from "./seller.js";
import { uncharged, withCashChildPoints, withListedFares, writtenCount } from "./written-members.js";

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
        designator: voo.Numero.trim(),
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

/** Each passenger type's share: the fare by its `Valor*`, the boarding fees by its `Embarque*`. */
const sharesOf = (o: UpstreamModeBOffer, p: Passengers): FareShare[] => {
  const t = o.Taxas;
  const rows: FareShare[] = [
    { type: "ADT", count: p.adults, baseWeight: (o.ValorAdulto ?? 0) * p.adults, taxWeight: (t?.Embarque ?? 0) * p.adults },
    { type: "CHD", count: p.children, baseWeight: (o.ValorCrianca ?? 0) * p.children, taxWeight: (t?.EmbarqueChd ?? 0) * p.children },
    { type: "INF", count: p.infants, baseWeight: (o.ValorBebe ?? 0) * p.infants, taxWeight: 0 },
  ];
  return rows.filter((r) => r.count > 0);
};

/**
 * The seller's fee in centavos, signed (negative: a discount): `Taxas.Servico` percent of the fare
 * (`ValorTotal`, else `fare`) on a cash fare; nothing on an award fare, where the upstream does not apply it.
 * A cash offer whose taxes are plainly the boarding fees alone (no infants, whose fees have no member) was
 * not charged it either. Within a centavo of the members' boarding fees, the difference is taken, so
 * `Taxas.Embarque` is kept as sent.
 */
const appliedFeeOf = (o: UpstreamModeBOffer, p: Passengers, award: boolean, fare: number, taxes: number): number => {
  const percent = o.Taxas?.Servico ?? 0;
  if (award || percent === 0 || !Number.isFinite(percent)) return 0;
  const fee = Math.round(((typeof o.ValorTotal === "number" ? cents(o.ValorTotal) : fare) * percent) / 100);
  if (!Number.isSafeInteger(fee)) return 0;
  const boarding = cents(o.Taxas?.Embarque) * p.adults + cents(o.Taxas?.EmbarqueChd) * p.children;
  const rest = taxes - boarding - fee;
  if (p.infants === 0 && Math.abs(taxes - boarding) < Math.abs(rest)) return 0;
  return Math.abs(rest) <= 1 ? taxes - boarding : fee;
};

/** Largest believable booking-to-adult ratio: 9 seated passengers plus their infants, with room to spare. */
const MAX_BOOKING_RATIO = 20;

/**
 * What the booking costs at the airline's fare (`ValorAdultoNaCia` scaled to the booking) with the offer's
 * own `taxes`; 0 when the answer gives no airline price.
 */
const airlinePriceOf = (o: UpstreamModeBOffer, p: Passengers, taxes: number): number => {
  const company = o.ValorAdultoNaCia ?? 0;
  if (!(company > 0)) return 0;
  const ratio = (o.ValorTotal ?? 0) / (o.ValorAdulto ?? 0);
  const factor = Number.isFinite(ratio) && ratio > 0 && ratio <= MAX_BOOKING_RATIO ? ratio : Math.max(1, p.adults);
  const price = centavosFromDecimal(company * factor) + taxes;
  return Number.isSafeInteger(price) && price > 0 ? price : 0;
};

/** The offer's fare family: the first `Tarifas[]` member naming one. */
const familyOf = (o: UpstreamModeBOffer) => (o.Tarifas ?? []).find((t) => t?.Tipo?.trim()) ?? undefined;

/**
 * The bags: the offer's `BagagensInclusas`, else its fare family's, at least `QtdBagagemInclusa` checked; the
 * counts `QntdBagagem` and `QtdBagagemInclusa` kept as written.
 */
const baggageOf = (o: UpstreamModeBOffer): Baggage => {
  const own = o.BagagensInclusas ?? [];
  const lines = own.length > 0 ? own : ((o.Tarifas ?? []).find((t) => (t?.BagagensInclusas ?? []).length > 0)?.BagagensInclusas ?? []);
  const b = baggageFromLines(lines, o.QtdBagagemInclusa ?? 0);
  return { checked: b.checked, checkedText: b.checkedText, cabin: b.cabin, cabinText: b.cabinText, bagCount: writtenCount(o.QntdBagagem), includedCount: writtenCount(o.QtdBagagemInclusa) };
};

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
  const points = o.PontosAdulto;
  const award = typeof points === "number" && points >= 0;
  const fee = appliedFeeOf(o, r.passengers, award, total - taxes, taxes);
  const family = familyOf(o);
  const fares = withListedFares(withServiceFee(buildFares(shares, total - taxes, taxes - fee, CURRENCY), fee), family, CURRENCY);
  // An award fare's percentage is not charged (fee 0), but kept, to be written back as the answer wrote it.
  const discount: SellerDiscount | undefined =
    fee !== 0 ? { percent: -(o.Taxas?.Servico ?? 0), amount: money(-fee) } : award ? uncharged(o.Taxas?.Servico, CURRENCY) : undefined;
  const airlinePrice = money(airlinePriceOf(o, r.passengers, taxes));
  const fareFamily = family?.Tipo?.trim();
  const miles: MilesPrice | undefined =
    award && typeof points === "number"
      ? {
          pointsAdult: Math.round(points),
          pointsChild: Math.max(0, Math.round(o.PontosCrianca ?? 0)),
          taxes: money(taxes),
          programme: known?.programme || validatingCarrier.name,
        }
      : undefined;
  const seller = withCashChildPoints(
    otaSeller(o.Nome, o.Site, o.UrlPesquisa) ?? airlineSeller(validatingCarrier, known, miles ? known?.programme : undefined),
    award,
    o.PontosCrianca,
  );
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
    ...(discount ? { discount } : {}),
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
