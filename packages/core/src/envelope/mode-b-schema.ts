import * as z from "zod";
import { CountSchema, DecimalAmountSchema, IataCodeSchema, LocalDateTimeSchema, PercentSchema } from "./scalars.js";

/**
 * Strict zod schemas of what the service writes in Mode B and in single-airline answers (spec 2.5 and 2.6):
 * every member the spec lists, with its exact name. "Null or value" members we never fill are `null`;
 * the airline's always-empty lists are arrays that admit no element. No transforms (`z.toJSONSchema`-ready).
 */

/** A list the real service always answers empty: an array that admits no element. */
const EmptyListSchema = z.array(z.never()).meta({ description: "Sempre vazia." });

/** The airline object (`Cia`) of a Mode B offer. */
export const ModeBAirlineSchema = z
  .strictObject({
    Id: CountSchema,
    Nome: z.string(),
    Iata: z.string(),
    AtivaBusca: z.boolean(),
    Icao: z.string(),
    Pais: z.string(),
    DadosCia: EmptyListSchema,
    ConfiguracaoBagagem: EmptyListSchema,
    CupomDescontoRestricao: EmptyListSchema,
    TaxaEmbarque: EmptyListSchema,
    Configuracao: EmptyListSchema,
    LogResultado: EmptyListSchema,
    LogConsulta: EmptyListSchema,
    CacheConsulta: EmptyListSchema,
    ConfigProxy: EmptyListSchema,
    ProgramaFidelidadeTipo: EmptyListSchema,
    ApiRequests: EmptyListSchema,
    FranqueadoPolitica: EmptyListSchema,
    Ids: z.null(),
    _PageNumber: CountSchema,
    PageNumber: CountSchema,
    PageSize: CountSchema,
    OrderBy: z.null(),
    OrderDesc: z.boolean(),
  })
  .meta({ id: "ModeBAirline", description: "Companhia aérea da oferta." });

/** A percentage of the seller's fee (`Taxas.Servico`): signed, any precision. */
const FeePercentSchema = z.number().min(-100).max(1_000);

/** The fee object (`Taxas`) of a Mode B offer. */
export const ModeBFeesSchema = z
  .strictObject({
    IdCia: CountSchema,
    Servico: FeePercentSchema.meta({ description: "Taxa de serviço do vendedor em PERCENTUAL da tarifa sem taxas (ValorTotal); negativa quando é um desconto (-5: 5 % de desconto). Aplicada só a tarifas em dinheiro: ValorTotalTaxas = Embarque + ValorTotal x Servico / 100; em tarifas com milhas, 0." }),
    ServicoChd: FeePercentSchema.meta({ description: "O mesmo percentual de Servico quando há crianças; senão 0." }),
    Embarque: DecimalAmountSchema.meta({ description: "Taxa de embarque por adulto." }),
    EmbarqueChd: DecimalAmountSchema.meta({ description: "Taxa de embarque por criança." }),
    EmissaoResgate: DecimalAmountSchema,
    ValorFranquia: DecimalAmountSchema,
    EmbarqueStr: z.string().nullable(),
    Bagagens: z.null(),
  })
  .meta({ id: "ModeBFees" });

/** One flight of a Mode B offer (`Voos[]`). */
export const ModeBFlightLegSchema = z
  .strictObject({
    Numero: z.string().meta({ description: "Número do voo como a fonte o escreveu (G3-2053; G31660 nas ofertas Livelo); <IATA>-<número> quando a fonte só deu o número.", examples: ["G3-2053"] }),
    Saida: LocalDateTimeSchema,
    Chegada: LocalDateTimeSchema,
    Origem: IataCodeSchema,
    Destino: IataCodeSchema,
    Duracao: CountSchema.meta({ description: "Minutos de voo." }),
    Tempo: z.string().regex(/^\d{2,}:\d{2}$/).meta({ description: "Tempo de voo HH:MM.", examples: ["01:05"] }),
    TempoEspera: z
      .string()
      .regex(/^\d{2,}h \d{2}m$/)
      .nullable()
      .meta({ description: "Espera pela conexão depois deste voo (HHh MMm), como as respostas reais a escrevem; null no último voo.", examples: ["01h 05m"] }),
    Classe: CountSchema.meta({ description: "Cabine: 0 econômica, 1 premium, 2 executiva, 3 primeira." }),
    ClasseStr: z.string(),
  })
  .meta({ id: "ModeBFlightLeg" });

/** Another seller's offer for the same flight (`Outros[]`). */
export const ModeBAlternativeSchema = z
  .strictObject({
    Nome: z.string(),
    Url: z.url(),
    Valor: DecimalAmountSchema.meta({ description: "Valor total com taxas." }),
    Cabine: z.string(),
    OpcaoReserva: z.string(),
    Site: z.string(),
  })
  .meta({ id: "ModeBAlternative" });

/** One line of included baggage (`BagagensInclusas[]`), per passenger. */
export const ModeBIncludedBagSchema = z
  .strictObject({
    Bagagem: z.union([z.literal(0), z.literal(1)]).meta({ description: "0 bagagem de mão, 1 bagagem despachada." }),
    TextoBagagem: z.string().min(1).meta({ examples: ["1 bagagem de mão", "Até 2 bagagens para despachar"] }),
    Quantidade: z.int().min(1),
  })
  .meta({ id: "ModeBIncludedBag" });

/** The fare family of an offer (`Tarifas[]`), as real answers write it; money per passenger, without taxes. */
export const ModeBFareFamilySchema = z
  .strictObject({
    SegmentClass: z.null(),
    Tipo: z.string().min(1).meta({ description: "Família tarifária.", examples: ["LIGHT", "STANDARD", "FULL"] }),
    ValorAdulto: DecimalAmountSchema.meta({ description: "Tarifa da família para um adulto, sem taxas, como a fonte a lista (nas ofertas com milhas da LATAM, a tarifa da família, não o ValorAdulto da oferta)." }),
    ValorCrianca: DecimalAmountSchema.meta({ description: "Tarifa da família para uma criança, sem taxas, como a fonte a lista." }),
    TaxaEmbarque: DecimalAmountSchema.meta({ description: "Taxa de embarque por adulto como a fonte a lista (a GOL repete Taxas.Embarque; a LATAM escreve 0); sem lista da fonte, Taxas.Embarque." }),
    Classe: z.string().meta({ examples: ["Economica"] }),
    BagagensInclusas: z.array(ModeBIncludedBagSchema),
    Token: z.string().optional().meta({ description: "Só nas opções além da primeira: o token da tarifa, para reservá-la." }),
    ValorTotalComTaxa: DecimalAmountSchema.optional().meta({ description: "Só nas opções além da primeira: o total da reserva com taxas." }),
    OpcaoReserva: z.string().optional().meta({ description: "Só nas opções além da primeira: a opção de reserva (Tarifa Plus...)." }),
    Url: z.string().optional().meta({ description: "Só nas opções além da primeira: o link do vendedor para esta tarifa." }),
  })
  .meta({ id: "ModeBFareFamily" });

/** A Mode B offer (element of `Ida` or `Volta`). */
export const ModeBOfferSchema = z
  .strictObject({
    Token: z.string().nullable(),
    IdCia: CountSchema,
    CiaParceira: z.null(),
    Cia: ModeBAirlineSchema,
    PontosAdulto: z.number().meta({ description: "Pontos por adulto; -1 marca um voo pago em dinheiro (pagante)." }),
    PontosCrianca: z.number().meta({ description: "Pontos por criança; num voo pagante, o que a fonte escreveu (-1, ou 0 nas tarifas em dinheiro da LATAM); -1 se ela não disse." }),
    QntdBagagem: CountSchema.meta({ description: "Como a fonte o escreveu (0 nas respostas reais, mesmo com bagagem despachada listada em BagagensInclusas); sem ele, as bagagens despachadas." }),
    QtdBagagemInclusa: CountSchema.meta({ description: "Como a fonte o escreveu (0 nas respostas reais, mesmo com bagagem despachada listada em BagagensInclusas); sem ele, as bagagens despachadas." }),
    Taxas: ModeBFeesSchema,
    Voos: z.array(ModeBFlightLegSchema).min(1),
    Tarifas: z
      .array(ModeBFareFamilySchema)
      .min(1)
      .nullable()
      .meta({
        description:
          "A família tarifária da oferta (primeiro elemento) e, a seguir, as outras tarifas do MESMO vendedor para o mesmo voo " +
          "(opções de tarifa), da mais barata à mais cara; null quando a fonte não informa família e não há outras opções.",
      }),
    ValorAdulto: DecimalAmountSchema.meta({ description: "Tarifa de UM adulto, sem taxas." }),
    ValorAdultoStr: z.string().nullable(),
    ValorAdultoNaCia: DecimalAmountSchema.meta({ description: "Preço da própria companhia, em dinheiro, para UM adulto, sem taxas; 0 quando a fonte não informa (assentos Livelo)." }),
    ValorCrianca: DecimalAmountSchema.meta({ description: "Tarifa de UMA criança, sem taxas." }),
    ValorBebe: DecimalAmountSchema.meta({ description: "Tarifa de UM bebê, sem taxas." }),
    ValorTotal: DecimalAmountSchema.meta({ description: "Total sem taxas, todos os passageiros." }),
    ValorTotalComTaxa: DecimalAmountSchema,
    ValorTotalTaxas: DecimalAmountSchema,
    FareOriginType: z.null(),
    Origem: IataCodeSchema,
    Destino: IataCodeSchema,
    Saida: LocalDateTimeSchema,
    Chegada: LocalDateTimeSchema,
    Duracao: CountSchema.meta({ description: "Minutos da primeira decolagem ao último pouso." }),
    TempoTotalStr: z.string().regex(/^\d{2,}h \d{2}m$/).meta({ examples: ["01h 05m"] }),
    ValorTxServico: DecimalAmountSchema.meta({ description: "0, como nas respostas reais: o desconto do vendedor é o percentual de Taxas.Servico, incluído em ValorTotalTaxas." }),
    PercentualEconomia: PercentSchema.meta({
      description:
        "Economia de ValorTotalComTaxa sobre o preço da companhia para a reserva (ValorAdultoNaCia na proporção da reserva, mais ValorTotalTaxas), em %; 0 numa tarifa da própria companhia, com ou sem desconto do vendedor.",
    }),
    FlightCode: z.string().meta({ description: "Os voos, cada um <IATA><número>, escritos juntos, como as respostas reais (G31323G39168).", examples: ["G32053"] }),
    Periodo: z.int().min(0).max(3).meta({ description: "Período da partida: 0 madrugada, 1 manhã, 2 tarde, 3 noite." }),
    Adultos: CountSchema,
    Criancas: CountSchema,
    BagagensInclusas: z.array(ModeBIncludedBagSchema).meta({ description: "Bagagens incluídas, por passageiro." }),
    Site: z.string().nullable().meta({ description: "Site do vendedor da oferta; null numa busca de uma só companhia, em que a oferta é da própria companhia (como as respostas reais)." }),
    Nome: z.string().nullable().meta({ description: "Nome do vendedor da oferta; null numa busca de uma só companhia, em que a oferta é da própria companhia (como as respostas reais)." }),
    UrlPesquisa: z.url().nullable().meta({ description: "Link do vendedor para a oferta; null numa busca de uma só companhia." }),
    Outros: z
      .array(ModeBAlternativeSchema)
      .optional()
      .meta({ description: "Ofertas de outras agências; vazia (ou ausente) numa busca de uma só companhia." }),
    Classe: CountSchema,
  })
  .meta({ id: "ModeBOffer", description: "Uma oferta de voo (Modo B ou companhia única)." });

/** One Mode B `Data` element. `LeaseId` is present while the search runs (decisions.md compatibility rule). */
export const ModeBSearchResultSchema = z
  .strictObject({
    TokenConsulta: z.string().nullable(),
    QntdAdulto: CountSchema,
    QntdCrianca: CountSchema,
    QntdBebe: CountSchema,
    Ida: z.array(ModeBOfferSchema),
    Volta: z.array(ModeBOfferSchema).meta({ description: "Ofertas de volta; vazia numa busca só de ida." }),
    LeaseId: z.string().optional().meta({ description: "Id da busca enquanto Completed é false." }),
  })
  .meta({ id: "ModeBSearchResult" });

/** A Mode B offer as written. */
export type ModeBOffer = z.infer<typeof ModeBOfferSchema>;
/** A line of `BagagensInclusas` as written. */
export type ModeBIncludedBag = z.infer<typeof ModeBIncludedBagSchema>;
/** A Mode B alternative offer (`Outros[]`) as written. */
export type ModeBAlternative = z.infer<typeof ModeBAlternativeSchema>;
/** A Mode B flight leg (`Voos[]`) as written. */
export type ModeBFlightLeg = z.infer<typeof ModeBFlightLegSchema>;
/** The airline object (`Cia`) as written. */
export type ModeBAirline = z.infer<typeof ModeBAirlineSchema>;
/** One Mode B `Data` element as written. */
export type ModeBSearchResult = z.infer<typeof ModeBSearchResultSchema>;
