import { CalendarBodySchema, CalendarEnvelopeSchema } from "@voar/core";
import { errorsOf, json, ref, UNSUPPORTED_MEDIA_TYPE, bearer, type Json } from "./openapi-parts.js";

/** The price calendar's routes (when the app has the feature and its store keeps calendars: Node, Deno, Bun). */
export const calendarPaths = (basePath: string): Json => {
  // Their schemas are registered (ids in zod's global registry) with this module, for the document's components.
  void [CalendarBodySchema, CalendarEnvelopeSchema];
  const body = { required: true, content: { "application/json": { schema: { anyOf: [ref("CalendarioRequest"), ref("CalendarioPoll")] } } } };
  const errors = errorsOf(["REQUISICAO_INVALIDA", "NAO_AUTORIZADO", "BUSCA_EXPIRADA", "CORPO_GRANDE_DEMAIS", "LIMITE_EXCEDIDO", "INDISPONIVEL", "ERRO_INTERNO"]);
  return {
    [`${basePath}/ConsultaAereo/Calendario`]: {
      post: {
        summary: "Inicia ou consulta um calendário de preços (datas flexíveis)",
        description:
          "Um dia por item de Data, em ordem de data, cada um uma busca comum (a mesma do Consultar: cache, Pagante, limites): o dia pedido primeiro, " +
          "depois os mais próximos. MenorValor é a menor tarifa em dinheiro com taxas para os passageiros pedidos; MenorPontos, os menos pontos, com as " +
          "taxas ao lado; TokenBusca abre os resultados do dia em Consultar { Token }. Repita com { Token } até Completed. Um dia que falhou (ou que o " +
          "orçamento de requisições do calendário deixou sem preço) diz por quê em Fontes e Erro; o calendário nunca falha por um dia. " +
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
        summary: "O mesmo calendário como Server-Sent Events",
        description: "Um evento por versão do calendário (id é a versão, data o mesmo envelope); o último tem Completed true. Last-Event-ID retoma depois daquela versão.",
        security: bearer,
        parameters: [{ name: "Last-Event-ID", in: "header", required: false, schema: { type: "string", pattern: "^\\d+$" } }],
        requestBody: body,
        responses: {
          "200": { description: "Fluxo de eventos; cada data é um RespostaCalendario ou RespostaErro.", content: { "text/event-stream": { schema: { type: "string" } } } },
          ...errors,
          ...UNSUPPORTED_MEDIA_TYPE,
        },
      },
    },
  };
};

