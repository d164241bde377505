import * as z from "zod";
import {
  CountSchema,
  DecimalAmountSchema,
  IataCodeSchema,
  LocalDateTimeSchema,
  PercentSchema,
} from "./scalars.js";
import { FiltrosSchema, OrdenacaoSchema } from "./view-members.js";

/**
 * Strict zod schemas of what the service writes in Mode A (spec 2.3 and 2.4): every member the spec lists,
 * with its exact name. Members the spec gives as "null or value" that we never fill are `null` here.
 * No transforms, so `z.toJSONSchema` can turn them into OpenAPI 3.1 components.
 */

/** A company as the wire names it (`validatingBy`, `managedBy`, `operatedBy`). */
export const CompanySchema = z
  .strictObject({ name: z.string(), iata: z.string() })
  .meta({ id: "Company", description: "Companhia aérea: nome e designador IATA." });

/** One flight of a segment: a takeoff and a landing. */
export const ModeALegSchema = z
  .strictObject({
    managedBy: CompanySchema,
    operatedBy: CompanySchema,
    status: z.null(),
    flightNumber: CountSchema,
    numberOfStops: CountSchema,
    stops: z.null(),
    duration: CountSchema.meta({ description: "Duração do voo em minutos, considerando os fusos." }),
    departure: IataCodeSchema,
    arrival: IataCodeSchema,
    departureDate: LocalDateTimeSchema,
    arrivalDate: LocalDateTimeSchema,
    aircraftCode: z.string().nullable(),
    seatClass: z.strictObject({ code: z.null(), description: z.string() }),
    fareBasis: z.null(),
    fareClass: z.null(),
  })
  .meta({ id: "ModeALeg", description: "Um voo (decolagem e pouso) de um itinerário." });

/** A service included in a fare (`HAND_LUGGAGE`, ...); `Number` is how many pieces, as real answers send it. */
export const FareServiceSchema = z.strictObject({
  type: z.string(),
  isIncluded: z.boolean(),
  description: z.string(),
  Number: CountSchema.meta({ description: "Quantidade incluída (peças)." }),
});

/** The checked baggage a fare includes, per passenger, as real answers write it. */
export const FareBaggageSchema = z
  .strictObject({
    isIncluded: z.literal(true),
    type: z.literal("CHECKED_BAGGAGE"),
    quantity: z.int().min(1).meta({ description: "Bagagens despachadas incluídas, por passageiro." }),
    texto: z.string().min(1).meta({ examples: ["Até 2 bagagens para despachar"] }),
  })
  .meta({ id: "FareBaggage" });

/** What a fare includes. */
export const FareProfileSchema = z
  .strictObject({
    baggage: FareBaggageSchema.nullable().meta({ description: "Bagagem despachada incluída; null quando a tarifa não inclui nenhuma." }),
    services: z.array(FareServiceSchema).meta({ description: "Serviços incluídos (HAND_LUGGAGE: bagagem de mão)." }),
    fareFamily: z.string().min(1).nullable().meta({ description: "Família tarifária (LIGHT, STANDARD, FULL, PLUS, MAX...); null quando a fonte não informa.", examples: ["LIGHT"] }),
    fareFamilyId: z.null(),
    fareFamilyProgramId: z.null(),
  })
  .meta({ id: "FareProfile" });

/** One alternative itinerary of a price group (an element of `segments` or `segmentsBack`). */
export const ModeASegmentSchema = z
  .strictObject({
    departure: IataCodeSchema,
    arrival: IataCodeSchema,
    departureDate: LocalDateTimeSchema,
    arrivalDate: LocalDateTimeSchema,
    rateToken: z.string().meta({ description: "Token opaco que identifica a tarifa." }),
    TokenConsultaSvc: z.string().meta({ description: "Token opaco que identifica a consulta na fonte." }),
    TokenConsultaMBX: z.string().meta({ description: "O mesmo token, com o nome que os fornecedores reais usam." }),
    packageGroup: z.null(),
    routeRPH: z.union([z.literal(0), z.literal(1)]).meta({ description: "0 ida, 1 volta." }),
    rph: CountSchema.meta({ description: "Posição do segmento na lista." }),
    numberOfStops: CountSchema,
    fareType: z.null(),
    duration: CountSchema.meta({ description: "Minutos da primeira decolagem ao último pouso." }),
    fareProfile: FareProfileSchema,
    legs: z.array(ModeALegSchema).min(1),
    FidelityProgram: z.string(),
    IdCiaResponsavel: CountSchema,
    ConfiguracoesRotas: z.string().meta({ description: "Trechos unidos por _, cada um <origem>-<destino>.", examples: ["CNF-BSB_BSB-SDU"] }),
    ValorSegmento: DecimalAmountSchema,
    PontosAdulto: z.number().meta({ description: "Pontos por adulto; -1 marca um voo pago em dinheiro (pagante)." }),
    PontosCrianca: z.number().meta({ description: "Pontos por criança; num voo pagante, o que a fonte escreveu (-1, ou 0 nas tarifas em dinheiro da LATAM); -1 se ela não disse." }),
    VistoEm: z.iso.datetime().optional().meta({ description: "Quando a oferta foi vista na fonte (UTC); ausente quando a fonte não diz.", examples: ["2026-09-01T12:00:00.000Z"] }),
    ValidoAte: z.iso.datetime().optional().meta({ description: "Até quando a oferta vale como atual (UTC); ausente quando a fonte não diz.", examples: ["2026-09-01T12:10:00.000Z"] }),
  })
  .meta({ id: "ModeASegment", description: "Um itinerário alternativo ao preço do grupo." });

/** The price of one passenger type, summed over the directions of the trip. */
export const ModeAFareSchema = z
  .strictObject({
    passengersType: z.enum(["ADT", "CHD", "INF"]),
    passengersCount: CountSchema,
    priceWithTax: DecimalAmountSchema,
    priceWithoutTax: DecimalAmountSchema,
    taxes: z.null(),
  })
  .meta({ id: "ModeAFare" });

/** The price of a price group. */
export const FareGroupSchema = z
  .strictObject({
    reCharging: z.boolean(),
    currency: z.string().length(3),
    priceWithTax: DecimalAmountSchema,
    priceWithoutTax: DecimalAmountSchema,
    priceInCompany: DecimalAmountSchema.meta({ description: "Preço da reserva pela tarifa da própria companhia, em dinheiro, com as taxas do grupo; igual a priceWithTax numa tarifa da companhia; 0 quando a fonte não informa (assentos Livelo)." }),
    percentualEconomia: PercentSchema.meta({ description: "Economia de priceWithTax sobre priceInCompany, em %." }),
    fares: z.array(ModeAFareSchema),
  })
  .meta({ id: "FareGroup" });

/** One price group: one validating airline at one price, with its alternative itineraries. */
export const ModeAFlightSchema = z
  .strictObject({
    validatingBy: CompanySchema,
    fareGroup: FareGroupSchema,
    segments: z.array(ModeASegmentSchema).min(1),
    segmentsBack: z.array(ModeASegmentSchema).nullable().meta({ description: "Alternativas de volta; null numa busca só de ida." }),
    ConfiguracoesRotas: z.array(z.string()),
    typeFlight: z.union([z.literal(1), z.literal(2)]).meta({ description: "1 só ida, 2 ida e volta." }),
    typeFlightStr: z.enum(["Ida", "IdaVolta"]),
    FlyTime: z.strictObject({ FasterGoing: CountSchema, FasterBack: CountSchema, Total: CountSchema }),
  })
  .meta({ id: "ModeAFlight", description: "Um grupo de preço (elemento de flights)." });

/** An airport referenced by the results. */
export const MetaAirportSchema = z
  .strictObject({
    name: z.string(),
    iata: IataCodeSchema,
    stop: z.boolean().meta({ description: "true quando o aeroporto só aparece como conexão." }),
    location: z.strictObject({ name: z.string() }),
    internacional: z.boolean(),
  })
  .meta({ id: "MetaAirport" });

/** Filter values of one direction over the whole result set. */
export const FilterSchema = z
  .strictObject({
    Stops: z.array(z.strictObject({ Key: CountSchema, Value: CountSchema })),
    Airlines: z.array(z.string()),
    AirlineIATA: z.array(z.string()).meta({ description: "Designadores IATA das companhias (membro extra)." }),
    DepartureDate: z.array(LocalDateTimeSchema),
    ArrivalDate: z.array(LocalDateTimeSchema),
    Prices: z.null(),
    Departure: z.array(IataCodeSchema),
    Arrival: z.array(IataCodeSchema),
    Total: CountSchema,
  })
  .meta({ id: "Filter" });

/** Price groups per filter value over the whole result set: each is the total that value alone gives. */
export const ContagensSchema = z
  .strictObject({
    Paradas: z
      .array(z.strictObject({ Key: CountSchema, Value: CountSchema }))
      .meta({
        description:
          "Grupos que Filtros.Paradas com 0, 1 ou 2 (2+) deixa passar: só ida, grupos com alguma alternativa com tantas paradas; ida e volta, grupos com tantas paradas nos dois trechos.",
      }),
    ParadasIda: z
      .array(z.strictObject({ Key: CountSchema, Value: CountSchema }))
      .meta({
        description:
          "Grupos por paradas do trecho de ida (o que Filtros.ParadasIda deixa passar). Ida e volta: cada grupo conta numa só chave, e as chaves somam o total de grupos. Só ida: igual a Paradas.",
      }),
    ParadasVolta: z
      .array(z.strictObject({ Key: CountSchema, Value: CountSchema }))
      .nullable()
      .meta({ description: "Grupos por paradas do trecho de volta (Filtros.ParadasVolta); as chaves somam o total de grupos. null numa busca só de ida." }),
    Companhias: z.array(z.strictObject({ Key: z.string(), Value: CountSchema })).meta({ description: "Grupos por companhia validadora (IATA)." }),
    Milhas: CountSchema,
    Dinheiro: CountSchema,
  })
  .meta({ id: "Contagens", description: "Grupos por valor de filtro, sobre todo o resultado (sem os filtros do pedido)." });

/** Mode A `meta`: describes the whole result set, not only the page. */
export const ModeAMetaSchema = z
  .strictObject({
    statusExecution: z.null(),
    countFlights: CountSchema,
    countPriceGroups: CountSchema,
    price: z.null(),
    priceMatrix: z.null(),
    routes: z.null(),
    airports: z.array(MetaAirportSchema),
    TotalGroups: CountSchema,
    WayFilter: FilterSchema,
    ReturnFilter: FilterSchema.nullable().meta({ description: "null numa busca só de ida." }),
    GoingCompany: z.null(),
    BackCompany: z.null(),
    TransactionId: z.null(),
    Contagens: ContagensSchema,
    Ordenacao: OrdenacaoSchema,
    Filtros: FiltrosSchema.nullable().meta({ description: "Os filtros aplicados (forma canônica); null sem filtros." }),
  })
  .meta({ id: "ModeAMeta" });

/** One Mode A `Data` element. `LeaseId` is present while the search runs (decisions.md compatibility rule). */
export const ModeAResultGroupSchema = z
  .strictObject({
    flights: z.array(ModeAFlightSchema),
    meta: ModeAMetaSchema,
    LeaseId: z.string().optional().meta({ description: "Id da busca enquanto Completed é false." }),
  })
  .meta({ id: "ModeAResultGroup" });

/** A Mode A flight (price group) as written. */
export type ModeAFlight = z.infer<typeof ModeAFlightSchema>;
/** A Mode A fare profile as written. */
export type ModeAFareProfile = z.infer<typeof FareProfileSchema>;
/** A Mode A segment as written. */
export type ModeASegment = z.infer<typeof ModeASegmentSchema>;
/** A Mode A leg as written. */
export type ModeALeg = z.infer<typeof ModeALegSchema>;
/** A Mode A fare group as written. */
export type ModeAFareGroup = z.infer<typeof FareGroupSchema>;
/** A Mode A filter object as written. */
export type ModeAFilter = z.infer<typeof FilterSchema>;
/** Mode A `meta` as written. */
export type ModeAMeta = z.infer<typeof ModeAMetaSchema>;
/** One Mode A `Data` element as written. */
export type ModeAResultGroup = z.infer<typeof ModeAResultGroupSchema>;
