import { describe, expect, it } from "vitest";
import { cabinCode, dayPeriod, toWireComparison, toWireModeBResult, toWireSingleAirlineOffer } from "../../src/envelope/mode-b.js";
import { ModeBOfferSchema, ModeBSearchResultSchema } from "../../src/envelope/mode-b-schema.js";
import { airports } from "../../src/airports/index.js";
import { readUpstreamAnswer } from "../../src/upstream/index.js";
import { fare, itinerary, leg, offer, seller, smiles } from "./build-offers.js";

const family = { adults: 2, children: 1, infants: 1 };

/** Two legs CNF-BSB-GIG with a 1h20 connection at BSB. */
const viaBsb = itinerary(
  [
    leg({ destination: "BSB", arrival: "2025-08-12T15:40:00", durationMinutes: 90 }),
    leg({ flightNumber: 1500, origin: "BSB", departure: "2025-08-12T17:00:00", arrival: "2025-08-12T18:35:00", durationMinutes: 95 }),
  ],
  265,
);

const main = offer({
  seller: seller("voaja"),
  itinerary: viaBsb,
  fares: [fare("ADT", 2, 200_000, 8_424), fare("CHD", 1, 80_000, 4_212), fare("INF", 1, 10_000, 1_000)],
  airlinePrice: 400_000,
});
const other = (id: string, totalCentavos: number) => offer({ seller: seller(id), itinerary: viaBsb, fares: [fare("ADT", 2, totalCentavos, 0)] });

describe("toWireComparison", () => {
  const wire = toWireComparison({ id: main.flightKey, main, fareOptions: [], others: [other("passagens", 304_010), other("milhasja", 310_000)], passengers: family });

  it("validates against the strict schema", () => {
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
  });

  it("writes the totals exact to the centavo and the per-passenger members for ONE passenger, as upstreams mean them", () => {
    expect(wire).toMatchObject({
      ValorTotalComTaxa: 3036.36,
      ValorTotalTaxas: 136.36,
      ValorTotal: 2900,
      // One adult, one child, one infant, without taxes (2 adults pay 2000.00 together).
      ValorAdulto: 1000,
      ValorCrianca: 800,
      ValorBebe: 100,
      // The airline's 4000.00 for the booking, without its 136.36 of taxes, in one adult's share (1000 of 2900).
      ValorAdultoNaCia: 1332.29,
    });
    expect(wire.PercentualEconomia).toBeCloseTo(((400_000 - 303_636) / 400_000) * 100, 12);
    // Fees per adult and per child; no seller's service fee.
    expect(wire.Taxas).toMatchObject({ Embarque: 42.12, EmbarqueChd: 42.12, Servico: 0, ServicoChd: 0 });
    expect(wire.ValorTxServico).toBe(0);
  });

  it("lists the other sellers in Outros, in the view's order, with their totals", () => {
    expect(wire.Outros).toEqual([
      { Nome: "PASSAGENS", Url: "https://passagens.example/reserva?voo=1", Valor: 3040.1, Cabine: "Economica", OpcaoReserva: "Tarifa Light", Site: "passagens.example" },
      { Nome: "MILHASJA", Url: "https://milhasja.example/reserva?voo=1", Valor: 3100, Cabine: "Economica", OpcaoReserva: "Tarifa Light", Site: "milhasja.example" },
    ]);
    expect([wire.Nome, wire.Site, wire.UrlPesquisa]).toEqual(["VOAJA", "voaja.example", "https://voaja.example/reserva?voo=1"]);
  });

  it("writes the flights with numbers, times, the connection wait (on the flight before it, as real answers do) and the total time", () => {
    expect(wire.Voos.map((v) => [v.Numero, v.Origem, v.Destino, v.Tempo, v.TempoEspera, v.Duracao])).toEqual([
      ["G3-1234", "CNF", "BSB", "01:30", "01h 20m", 90],
      ["G3-1500", "BSB", "GIG", "01:35", null, 95],
    ]);
    expect([wire.FlightCode, wire.TempoTotalStr, wire.Duracao, wire.Saida, wire.Chegada]).toEqual([
      "G31234G31500",
      "04h 25m",
      265,
      "2025-08-12T14:10:00",
      "2025-08-12T18:35:00",
    ]);
    expect([wire.Periodo, wire.Classe, wire.Voos[0]?.ClasseStr]).toEqual([2, 0, "Economica"]);
  });

  it("describes the airline from the airline table and marks cash with -1 points", () => {
    expect(wire.Cia).toMatchObject({ Id: 2, Nome: "GOL", Iata: "G3", Icao: "GLO", Pais: "Brasil", DadosCia: [], OrderDesc: false });
    expect([wire.IdCia, wire.PontosAdulto, wire.PontosCrianca, wire.Adultos, wire.Criancas]).toEqual([2, -1, -1, 2, 1]);
  });
});

describe("toWireComparison with fare options of the main seller", () => {
  const plus = { ...main, id: "voaja:plus", fareToken: "ft-plus", fareFamily: "PLUS", bookingOption: "Tarifa Plus", total: { ...main.total, amount: main.total.amount + 20_000 } };
  const wire = toWireComparison({ id: main.flightKey, main: { ...main, fareFamily: "LIGHT" }, fareOptions: [plus], others: [other("passagens", 304_010)], passengers: family });

  it("carries the seller's own other fare after its fare in Tarifas, never in Outros", () => {
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
    expect(wire.Outros!.map((o) => o.Nome)).toEqual(["PASSAGENS"]);
    expect(wire.Tarifas!.map((t) => t.Tipo)).toEqual(["LIGHT", "PLUS"]);
    expect(wire.Tarifas![1]).toMatchObject({ Token: "ft-plus", OpcaoReserva: "Tarifa Plus", ValorTotalComTaxa: (main.total.amount + 20_000) / 100 });
    expect(wire.Tarifas![0]).not.toHaveProperty("Token");
  });

  it("reads back: the main offer, its seller's other fare (total, family, link) and the other seller, each an offer", () => {
    const envelope = { Success: true, Data: [{ TokenConsulta: "busca-1", QntdAdulto: 2, QntdCrianca: 1, QntdBebe: 1, Ida: [wire], Volta: [] }] };
    const read = readUpstreamAnswer(envelope, { airports, sourceId: "up" });
    if (!("offers" in read)) throw new Error(`not read: ${JSON.stringify(read)}`);
    const bySeller = read.offers.map((o) => [o.seller.name, o.total.amount, o.fareFamily ?? null, o.bookingOption, o.seller.url]);
    expect(bySeller).toEqual([
      ["VOAJA", main.total.amount, "LIGHT", "Tarifa LIGHT", "https://voaja.example/reserva?voo=1"],
      ["VOAJA", main.total.amount + 20_000, "PLUS", "Tarifa Plus", plus.seller.url],
      ["PASSAGENS", 304_010, null, "Tarifa Light", "https://passagens.example/reserva?voo=1"],
    ]);
    expect(new Set(read.offers.map((o) => o.id)).size).toBe(3);
  });
});

describe("toWireSingleAirlineOffer", () => {
  it("writes a miles offer with its points and an empty Outros; the schema also accepts Outros absent", () => {
    const wire = toWireSingleAirlineOffer(offer({ miles: smiles }), { adults: 1, children: 0, infants: 0 });
    expect(ModeBOfferSchema.parse(wire)).toEqual(wire);
    expect([wire.PontosAdulto, wire.PontosCrianca, wire.Outros]).toEqual([40_000, 0, []]);
    expect([wire.ValorTotalComTaxa, wire.ValorTotal, wire.TempoTotalStr, wire.FlightCode]).toEqual([1091.96, 1049.84, "01h 10m", "G31234"]);
    const { Outros: _omitted, ...withoutOutros } = wire;
    expect(ModeBOfferSchema.safeParse(withoutOutros).success).toBe(true);
  });

  it("is refused by the strict schema when a member is unknown or missing", () => {
    const wire = toWireSingleAirlineOffer(offer(), { adults: 1, children: 0, infants: 0 });
    expect(ModeBOfferSchema.safeParse({ ...wire, Extra: 1 }).success).toBe(false);
    const { Cia: _cia, ...withoutCia } = wire;
    expect(ModeBOfferSchema.safeParse(withoutCia).success).toBe(false);
  });
});

describe("toWireModeBResult", () => {
  it("writes counts, the search token and both directions (Volta empty for one-way)", () => {
    const ida = [toWireSingleAirlineOffer(offer(), family)];
    const result = toWireModeBResult({ searchToken: "s-1", passengers: family, outbound: ida, inbound: [] });
    expect(ModeBSearchResultSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({ TokenConsulta: "s-1", QntdAdulto: 2, QntdCrianca: 1, QntdBebe: 1, Volta: [] });
    expect(result.Ida).toHaveLength(1);
  });
});

describe("cabin and period codes", () => {
  it("numbers cabins 0 economy, 1 premium, 2 business, 3 first", () => {
    expect(["Economica", "Econômica", "Premium Economy", "Executiva", "Business", "Primeira", "First"].map(cabinCode)).toEqual([0, 0, 1, 2, 2, 3, 3]);
  });

  it("numbers periods of the day from the local departure hour", () => {
    expect(["2025-08-12T05:59:00", "2025-08-12T06:00:00", "2025-08-12T12:00:00", "2025-08-12T18:00:00"].map(dayPeriod)).toEqual([0, 1, 2, 3]);
  });
});
