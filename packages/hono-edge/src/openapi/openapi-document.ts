import { ConsultarBodySchema, ERROR_CODES, EnvelopeSchema, type ErrorCode } from "@voar/core";
import * as z from "zod";
import { TokenErrorSchema } from "../auth/oauth-error.js";
import { REAL_STATUS_HEADER } from "../middleware/legacy-status.js";
import { PaganteListSchema, PaganteUpdateSchema } from "../routes/admin-route.js";
import { TokenRequestSchema, TokenResponseSchema } from "../routes/token-route.js";
import { bearer, errorsOf, json, ref, UNSUPPORTED_MEDIA_TYPE, type Json } from "./openapi-parts.js";
import { PACKAGE_VERSION } from "./package-version.js";

/**
 * The OpenAPI 3.1 description of the service, generated from the zod schemas (core's wire schemas and this
 * package's own) with zod 4's `z.toJSONSchema`: every schema with an `id` becomes a component, referenced
 * by `$ref`, so the document cannot drift from what the code validates and writes.
 */

/** The components of every registered schema, plus the unions the routes use. */
const components = (): Record<string, Json> => {
  // Touch the schemas so their modules (and ids) are registered even if nothing else imported them.
  void [ConsultarBodySchema, EnvelopeSchema, TokenRequestSchema, TokenResponseSchema, TokenErrorSchema, PaganteUpdateSchema, PaganteListSchema];
  const { schemas } = z.toJSONSchema(z.globalRegistry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: "any" });
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Each entry is a standalone document; as a component it needs neither its own dialect nor its own id.
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
    out[id] = rest;
  }
  out["ConsultaAereoBody"] = { anyOf: [ref("ConsultaAereoRequest"), ref("ConsultaAereoPoll")] };
  out["RespostaSucesso"] = { anyOf: [ref("RespostaModoA"), ref("RespostaModoB")] };
  return out;
};

/** Every `$ref` target id under a node. */
const refsIn = (node: unknown, out: Set<string>): Set<string> => {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out);
  else if (typeof node === "object" && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.add(v.slice("#/components/schemas/".length));
      else refsIn(v, out);
    }
  }
  return out;
};

/** Keeps the components the paths reach (the global registry may hold schemas of other modules). */
const reachable = (paths: Json, all: Record<string, Json>): Record<string, Json> => {
  const keep = new Set<string>();
  const queue = [...refsIn(paths, new Set())];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (keep.has(id) || !all[id]) continue;
    keep.add(id);
    queue.push(...refsIn(all[id], new Set()));
  }
  return Object.fromEntries(Object.entries(all).filter(([id]) => keep.has(id)));
};

const SEARCH_ERRORS: readonly ErrorCode[] = ERROR_CODES;

const LEGACY_CLIENTS =
  "Clientes legados (chave ou agência configurada com compat legacy): toda resposta tem HTTP 200, falhas também " +
  `(Success false, mesmo envelope; o status real vai no cabeçalho ${REAL_STATUS_HEADER}), exceto 401 de credencial inválida; ` +
  'números como texto ("1") são aceitos, Ida e Volta com hora sem fuso ("YYYY-MM-DDT00:00:00"), Volta "0001-01-01" significa só ida, ' +
  "e sem NumeroPagina nem QuantidadePorPagina a resposta traz todos os grupos de preço numa página só.\n\n" +
  "Filtros e Ordenacao (Modo A, opcionais, também numa consulta por Token): aplicados a todo o resultado, não só à página; " +
  "pagination conta os grupos que passam, meta.Contagens dá os grupos por valor de filtro sobre todo o resultado, " +
  "meta.Ordenacao e meta.Filtros repetem o que foi aplicado. A mesma visão vale para o Stream. " +
  "Paradas vale para todos os trechos; numa ida e volta, ParadasIda e ParadasVolta filtram cada trecho: cada grupo tem " +
  "um número de paradas na ida e um na volta, e meta.Contagens.ParadasIda e ParadasVolta somam, cada um, o total de grupos.";

const tokenError = (description: string, headers?: Json): Json => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/json": { schema: ref("TokenErro") } },
});

/**
 * Builds the OpenAPI 3.1 document for a base path; `extraPaths`, the paths of the app's features (the price
 * calendar's), go in beside the others.
 *
 * @example
 * app.get("/api/openapi.json", (c) => c.json(openApiDocument("/api")));
 */
export const openApiDocument = (basePath: string, extraPaths?: Json): Json => {
  const searchBody = { required: true, content: { "application/json": { schema: ref("ConsultaAereoBody") } } };
  const paths: Json = {
    [`${basePath}/ConsultaAereo/Consultar`]: {
      post: {
        summary: "Inicia ou consulta uma busca progressiva",
        description: LEGACY_CLIENTS,
        security: bearer,
        parameters: [{ name: "If-None-Match", in: "header", required: false, description: "ETag da última resposta recebida: 304 se a busca não mudou.", schema: { type: "string" } }],
        requestBody: searchBody,
        responses: {
          "200": { ...json(ref("RespostaSucesso"), "Resultado acumulado da busca, para a página pedida."), headers: { ETag: { description: "Busca, versão, página e visão pedidas (fraco; não inclui o RequestId).", schema: { type: "string" } } } },
          "304": { description: "If-None-Match nomeia o ETag atual: a busca não mudou desde aquela resposta (sem corpo).", headers: { ETag: { schema: { type: "string" } } } },
          ...errorsOf(SEARCH_ERRORS),
          ...UNSUPPORTED_MEDIA_TYPE,
        },
      },
    },
    [`${basePath}/ConsultaAereo/Stream`]: {
      post: {
        summary: "A mesma busca como Server-Sent Events",
        description:
          "Um evento por versão do resultado: id é a versão, data é o mesmo envelope da consulta. O último evento tem Completed true. " +
          "Last-Event-ID retoma depois daquela versão (com a versão atual, nada é reenviado; busca completa: o fluxo termina). Se o armazenamento de buscas ficar indisponível com o fluxo aberto, " +
          "ele termina com um evento INDISPONIVEL (Retentavel true, sem id): reconecte com o Last-Event-ID recebido.",
        security: bearer,
        parameters: [{ name: "Last-Event-ID", in: "header", required: false, schema: { type: "string", pattern: "^\\d+$" } }],
        requestBody: searchBody,
        responses: {
          "200": { description: "Fluxo de eventos; cada data é um RespostaSucesso ou RespostaErro.", content: { "text/event-stream": { schema: { type: "string" } } } },
          ...errorsOf(["REQUISICAO_INVALIDA", "NAO_AUTORIZADO", "BUSCA_EXPIRADA", "CORPO_GRANDE_DEMAIS", "LIMITE_EXCEDIDO", "INDISPONIVEL", "ERRO_INTERNO"]),
          ...UNSUPPORTED_MEDIA_TYPE,
        },
      },
    },
    ...extraPaths,
    [`${basePath}/Token`]: {
      post: {
        summary: "Token de acesso (OAuth2, concessão por senha)",
        requestBody: {
          required: true,
          content: { "application/x-www-form-urlencoded": { schema: ref("TokenRequest") }, "application/json": { schema: ref("TokenRequest") } },
        },
        description:
          "Erros no formato OAuth2 (RFC 6749 §5.2), { error, error_description }. O cabeçalho Authorization não é lido " +
          "(não há autenticação de cliente; client_id é ignorado). O token vale expires_in segundos (no mínimo 900).",
        responses: {
          "200": json(ref("TokenResponse"), "Token emitido."),
          "400": tokenError("invalid_request (corpo ou parâmetro ausente, repetido ou inválido), unsupported_grant_type ou invalid_grant (usuário ou senha incorretos)."),
          "413": tokenError("invalid_request: corpo acima do limite."),
          "429": tokenError("slow_down: tentativas de login erradas demais (deste endereço, ou para o usuário de todos os endereços), ou logins demais deste endereço; a senha não é verificada. Logins certos não contam para o limite de tentativas.", {
            "Retry-After": { description: "Segundos até a próxima tentativa.", schema: { type: "integer", minimum: 1 } },
          }),
        },
      },
    },
    [`${basePath}/admin/pagante`]: {
      get: { summary: "Chave Pagante por companhia", security: [{ adminKey: [] }], responses: { "200": json(ref("PaganteLista"), "Estado atual."), ...errorsOf(["NAO_AUTORIZADO"]) } },
      put: {
        summary: "Liga ou desliga os voos pagantes de uma companhia",
        security: [{ adminKey: [] }],
        requestBody: { required: true, content: { "application/json": { schema: ref("PaganteAtualizacao") } } },
        responses: { "200": json(ref("PaganteLista"), "Estado depois da mudança."), ...errorsOf(["REQUISICAO_INVALIDA", "NAO_AUTORIZADO"]), ...UNSUPPORTED_MEDIA_TYPE },
      },
    },
    "/health": { get: { summary: "Saúde do serviço (liveness)", responses: { "200": json({ type: "object", properties: { status: { const: "ok" } } }, "O processo responde.") } } },
    "/ready": {
      get: {
        summary: "Prontidão (readiness): o armazenamento de buscas responde",
        responses: {
          "200": json({ type: "object", properties: { status: { const: "ready" } } }, "Pronto para atender buscas."),
          "503": {
            description: "O armazenamento de buscas (Redis) não responde: não envie tráfego a esta instância por enquanto.",
            headers: { "Retry-After": { description: "Segundos até tentar de novo.", schema: { type: "integer", minimum: 1 } } },
            content: { "application/json": { schema: { type: "object", properties: { status: { const: "unavailable" }, store: { const: "unreachable" } } } } },
          },
        },
      },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Voar: busca de voos progressiva",
      version: PACKAGE_VERSION,
      description:
        "Busca de voos em todas as companhias (Modo A, paginada), comparação entre agências (Modo B) e busca numa só companhia. " +
        "A busca é progressiva: repita a consulta (ou envie { Token }) até Completed ser true, ou use o fluxo SSE. " +
        "Um caminho desta lista pedido com outro método responde 405 (RespostaErro, REQUISICAO_INVALIDA) com o cabeçalho Allow.",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: reachable(paths, components()),
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Chave de API ou token emitido por /Token." },
        oauth2: { type: "oauth2", flows: { password: { tokenUrl: `${basePath}/Token`, scopes: {} } } },
        adminKey: { type: "apiKey", in: "header", name: "X-Admin-Key" },
      },
    },
  };
};
