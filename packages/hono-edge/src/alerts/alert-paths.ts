import { AlertEnvelopeSchema, AlertEventSchema, AlertRequestSchema, DeliveryEnvelopeSchema, WebhookSecretEnvelopeSchema } from "@voar/core";
import { bearer, errorsOf, json, ref, UNSUPPORTED_MEDIA_TYPE, type Json } from "../openapi/openapi-parts.js";

const WEBHOOKS =
  "Cada aviso é um POST JSON (AlertaEvento) assinado como no padrão Standard Webhooks: cabeçalhos webhook-id (o Id do aviso, " +
  "o mesmo em cada tentativa: chave de idempotência), webhook-timestamp (segundos Unix desta tentativa) e webhook-signature " +
  '("v1,<base64 do HMAC-SHA256 de id.timestamp.corpo>" com o segredo de /Alertas/Segredo; logo após uma troca, também com o anterior). ' +
  "Responda 2xx em até 10 s; outra resposta (ou nenhuma) é tentada de novo com espera crescente por 24 h; 410 encerra as tentativas. " +
  "URLs que apontam para endereços privados, de loopback ou reservados são recusadas, salvo se o operador permitir.";

/** The price watches' routes (when the app has the feature and its store keeps alerts). */
export const alertPaths = (basePath: string): Json => {
  void [AlertRequestSchema, AlertEnvelopeSchema, DeliveryEnvelopeSchema, WebhookSecretEnvelopeSchema, AlertEventSchema];
  const id = [{ name: "id", in: "path", required: true, schema: { type: "string" }, description: "Id do alerta (Id da resposta de POST /Alertas)." }];
  const read = errorsOf(["NAO_AUTORIZADO", "LIMITE_EXCEDIDO", "INDISPONIVEL", "ERRO_INTERNO"]);
  const one = { ...read, "404": json(ref("RespostaErro"), "Nenhum alerta desta conta tem este id (REQUISICAO_INVALIDA, Campos id).") };
  return {
    [`${basePath}/Alertas`]: {
      post: {
        summary: "Cria um alerta de preço (avise-me quando baixar)",
        description:
          "Uma rota e um dia (ou Ida com DiasFlexiveis, ou um Mes inteiro), passageiros, cabine, dinheiro e/ou milhas, um teto por moeda " +
          "(ou qualquer nova mínima), validade e webhook. Cada dia é verificado no horário do serviço: mais vezes perto da viagem, menos com " +
          "preços estáveis, dentro do orçamento de requisições ao fornecedor; alertas de contas diferentes no mesmo dia compartilham a " +
          "verificação. O alerta avisa quando o preço fica igual ou abaixo do teto e de novo só numa nova mínima.\n\n" + WEBHOOKS,
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("AlertaRequest") } } },
        responses: {
          "201": { ...json(ref("RespostaAlertas"), "O alerta criado."), headers: { Location: { schema: { type: "string" } } } },
          ...errorsOf(["REQUISICAO_INVALIDA", "NAO_AUTORIZADO", "CORPO_GRANDE_DEMAIS", "LIMITE_EXCEDIDO", "INDISPONIVEL", "ERRO_INTERNO"]),
          ...UNSUPPORTED_MEDIA_TYPE,
        },
      },
      get: { summary: "Os alertas do seu token", security: bearer, responses: { "200": json(ref("RespostaAlertas"), "Do mais antigo ao mais novo."), ...read } },
    },
    [`${basePath}/Alertas/Stream`]: {
      get: {
        summary: "Os avisos dos seus alertas como Server-Sent Events (alternativa ao webhook)",
        description: "Um evento alerta por aviso (id: sequência, data: AlertaEvento). Last-Event-ID reenvia os avisos depois dele (os últimos 500 ficam guardados).",
        security: bearer,
        parameters: [{ name: "Last-Event-ID", in: "header", required: false, schema: { type: "string", pattern: "^\\d+$" } }],
        responses: { "200": { description: "Fluxo de eventos; cada data é um AlertaEvento.", content: { "text/event-stream": { schema: ref("AlertaEvento") } } }, ...read },
      },
    },
    [`${basePath}/Alertas/Segredo`]: {
      get: { summary: "O segredo que assina os webhooks do seu token (criado no primeiro uso)", security: bearer, responses: { "200": json(ref("RespostaSegredo"), "O segredo atual (e o anterior, durante a troca)."), ...read } },
      post: {
        summary: "Troca o segredo dos webhooks",
        description: "O novo segredo assina desde já; o anterior continua assinando junto por 24 h (padrão), para você trocar no receptor sem perder avisos.",
        security: bearer,
        responses: { "200": json(ref("RespostaSegredo"), "O novo segredo, e o anterior até quando vale."), ...read },
      },
    },
    [`${basePath}/Alertas/{id}`]: {
      get: { summary: "Um alerta: o que ele acompanha e o que já viu", security: bearer, parameters: id, responses: { "200": json(ref("RespostaAlertas"), "O alerta."), ...one } },
      delete: { summary: "Apaga um alerta", security: bearer, parameters: id, responses: { "200": json(ref("RespostaAlertas"), "O alerta apagado, como estava."), ...one } },
    },
    [`${basePath}/Alertas/{id}/Entregas`]: {
      get: {
        summary: "As entregas dos avisos de um alerta ao webhook",
        description: "Da mais nova à mais antiga (as últimas 50): estado, cada tentativa com status e duração, a próxima tentativa. " + WEBHOOKS,
        security: bearer,
        parameters: id,
        responses: { "200": json(ref("RespostaEntregas"), "As entregas."), ...one },
      },
    },
  };
};
