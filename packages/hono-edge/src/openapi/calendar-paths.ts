import { CalendarBodySchema, CalendarChangeSchema, CalendarEnvelopeSchema } from "@voar/core";
import { errorsOf, json, ref, UNSUPPORTED_MEDIA_TYPE, bearer, type Json } from "./openapi-parts.js";

/** The price calendar's routes (when the app has the feature and its store keeps calendars: Node, Deno, Bun). */
export const calendarPaths = (basePath: string): Json => {
  // Their schemas are registered (ids in zod's global registry) with this module, for the document's components.
  void [CalendarBodySchema, CalendarEnvelopeSchema, CalendarChangeSchema];
  const body = { required: true, content: { "application/json": { schema: { anyOf: [ref("CalendarioRequest"), ref("CalendarioPoll")] } } } };
  const errors = errorsOf(["REQUISICAO_INVALIDA", "NAO_AUTORIZADO", "BUSCA_EXPIRADA", "CORPO_GRANDE_DEMAIS", "LIMITE_EXCEDIDO", "INDISPONIVEL", "ERRO_INTERNO"]);
  return {
    [`${basePath}/ConsultaAereo/Calendario`]: {
      post: {
        summary: "Inicia ou consulta um calendário de preços (datas flexíveis)",
        description:
          "Um dia por item de Data, em ordem de data, cada um uma busca comum (a mesma do Consultar: cache, Pagante, limites), todos ao mesmo tempo. MenorValor é a menor tarifa em dinheiro com taxas para os passageiros pedidos; MenorPontos, os menos pontos, com as " +
          "taxas ao lado; TokenBusca abre os resultados do dia em Consultar { Token }. Repita com { Token } até Completed. Um dia que falhou (ou que o " +
          "orçamento de requisições do calendário deixou sem preço) diz por quê em Fontes e Erro; o calendário nunca falha por um dia. " +
          "Um dia só tem preço enquanto suas ofertas valem por mais um minuto (ou metade da vida, se menor): ValidoAte diz até quando; depois o dia fica expirado, " +
          "sem preço, e a próxima consulta do calendário o busca de novo. " +
          "Clientes legados: o corpo é lido como no Consultar (números como texto, datas com hora).",
        security: bearer,
        parameters: [{ name: "If-None-Match", in: "header", required: false, description: "ETag da última resposta: 304 se o calendário não mudou.", schema: { type: "string" } }],
        requestBody: body,
        responses: {
          "200": { ...json(ref("RespostaCalendario"), "O calendário como está."), headers: { ETag: { description: "Calendário e versão (fraco).", schema: { type: "string" } } } },
          "304": { description: "If-None-Match nomeia o ETag atual: o calendário não mudou (sem corpo).", headers: { ETag: { schema: { type: "string" } } } },
          ...errors,
          ...UNSUPPORTED_MEDIA_TYPE,
        },
      },
    },
    [`${basePath}/ConsultaAereo/Calendario/Stream`]: {
      post: {
        summary: "O mesmo calendário como Server-Sent Events, leve",
        description:
          "O primeiro evento é o calendário inteiro (RespostaCalendario; id é a versão); cada evento dias (event: dias) traz só os dias que mudaram desde o anterior " +
          "(MudancaCalendario: os dias inteiros, com Progresso e Completed), que substituem os dias da mesma data; o último, Completed true, é o calendário inteiro de novo. " +
          "Last-Event-ID retoma: na versão atual, com as mudanças seguintes; antes ou depois dela, com o calendário inteiro.",
        security: bearer,
        parameters: [{ name: "Last-Event-ID", in: "header", required: false, schema: { type: "string", pattern: "^\\d+$" } }],
        requestBody: body,
        responses: {
          "200": { description: "Fluxo de eventos: data é um RespostaCalendario (eventos sem nome), um MudancaCalendario (event: dias) ou RespostaErro.", content: { "text/event-stream": { schema: { type: "string" } } } },
          ...errors,
          ...UNSUPPORTED_MEDIA_TYPE,
        },
      },
    },
  };
};

