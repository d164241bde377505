import { readFileSync } from "node:fs";
import { ErrorEnvelopeSchema } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { ADMIN_KEY, API_KEY, consultar, NOW, QUERY, testApp } from "./support/app.js";
import { externalHosts } from "./support/html.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** A JSON Schema as these assertions read it. */
interface Schema {
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly anyOf?: readonly Schema[];
  readonly [key: string]: unknown;
}

/** The parts of the OpenAPI document the tests read. */
interface OpenApiDoc {
  readonly openapi: string;
  readonly paths: Readonly<Record<string, Readonly<Record<string, { readonly responses: Readonly<Record<string, unknown>> }>>>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, Schema>>;
    readonly securitySchemes: { readonly oauth2: { readonly flows: { readonly password: { readonly tokenUrl: string } } } };
  };
}

/** Every `$ref` in a JSON document. */
const refsOf = (node: unknown, out: string[] = []): string[] => {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, out));
  else if (typeof node === "object" && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
};

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3.1 document of every route, without auth", async () => {
    const { app } = testApp();
    const res = await app.request("/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApiDoc & { info: { version: string } };
    expect(doc.openapi).toBe("3.1.0");
    // The version of the packages that serve it (package.json's; set PACKAGE_VERSION when a release bumps it).
    expect(doc.info.version).toBe((JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/api/ConsultaAereo/Consultar",
        "/api/ConsultaAereo/Stream",
        "/api/ConsultaAereo/Calendario",
        "/api/ConsultaAereo/Calendario/Stream",
        "/api/Token",
        "/api/admin/pagante",
        "/health",
        "/ready",
      ].sort(),
    );
    const consultar = doc.paths["/api/ConsultaAereo/Consultar"]?.["post"];
    expect(Object.keys(consultar?.responses ?? {}).sort()).toEqual(["200", "304", "400", "401", "403", "404", "413", "415", "429", "500", "502", "503", "504"]);
    expect(doc.components.securitySchemes.oauth2.flows.password.tokenUrl).toBe("/api/Token");
  });

  it("is generated from the zod schemas: components are z.toJSONSchema output and every $ref resolves", async () => {
    const { app } = testApp();
    const doc = (await (await app.request("/api/openapi.json")).json()) as OpenApiDoc;
    const schemas = doc.components.schemas;
    for (const id of ["ConsultaAereoRequest", "ConsultaAereoPoll", "RespostaModoA", "RespostaModoB", "RespostaErro", "Progresso", "TokenRequest", "PaganteAtualizacao", "CalendarioRequest", "CalendarioPoll", "RespostaCalendario", "DiaCalendario"]) {
      expect(schemas[id]).toBeDefined();
    }
    const registry = z.toJSONSchema(z.globalRegistry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: "any" }).schemas;
    const { $schema: _, $id: __, ...generated } = registry[ErrorEnvelopeSchema.meta()!.id as string] as Record<string, unknown>;
    expect(schemas["RespostaErro"]).toEqual(generated);
    expect(schemas["RespostaErro"]?.properties?.["Erro"]).toEqual({ $ref: "#/components/schemas/Erro" });
    for (const ref of refsOf(doc)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas[ref.slice("#/components/schemas/".length)]).toBeDefined();
    }
    expect(schemas["ConsultaAereoRequest"]?.properties?.["QuantidadePorPagina"]?.anyOf?.[0]).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
  });

  it("describes /Token errors in OAuth2 form and the answers legacy clients get", async () => {
    const { app } = testApp();
    const doc = (await (await app.request("/api/openapi.json")).json()) as OpenApiDoc;
    const token = doc.paths["/api/Token"]?.["post"];
    expect(Object.keys(token?.responses ?? {}).sort()).toEqual(["200", "400", "413", "429"]);
    for (const status of ["400", "413", "429"]) {
      expect(JSON.stringify(token?.responses?.[status])).toContain('"$ref":"#/components/schemas/TokenErro"');
    }
    expect(JSON.stringify(token?.responses?.["429"])).toContain("Retry-After");
    expect(doc.components.schemas["TokenErro"]?.properties?.["error"]).toMatchObject({ enum: ["invalid_request", "invalid_grant", "unsupported_grant_type", "slow_down"] });
    const consultar = JSON.stringify(doc.paths["/api/ConsultaAereo/Consultar"]);
    expect(consultar).toContain("compat legacy");
    expect(consultar).toContain("X-Voar-Status");
  });

  it.each([
    ["/api/ConsultaAereo/Consultar", "post"],
    ["/api/ConsultaAereo/Stream", "post"],
    ["/api/admin/pagante", "put"],
  ])("documents the status %s answers to a body that is not JSON (415), and the 405 of another method", async (path, method) => {
    const { app } = testApp();
    const answered = await app.request(path, {
      method: method.toUpperCase(),
      headers: { Authorization: `Bearer ${API_KEY}`, "X-Admin-Key": ADMIN_KEY, "Content-Type": "application/xml" },
      body: "<a/>",
    });
    expect(answered.status).toBe(415);
    const doc = (await (await app.request("/api/openapi.json")).json()) as OpenApiDoc & { info: { description: string } };
    const documented = doc.paths[path]?.[method]?.responses?.[String(answered.status)];
    expect(JSON.stringify(documented)).toContain('"$ref":"#/components/schemas/RespostaErro"');
    expect(JSON.stringify(documented)).toContain("Content-Type");
    expect(doc.info.description).toContain("405");
  });
});

describe("other routes", () => {
  it("GET /api/docs without docs assets (the Worker's case) says where the reference is, and links the document", async () => {
    const { app } = testApp();
    const res = await app.request("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('href="/api/openapi.json"');
    expect(html).toContain("voar-server");
    expect(externalHosts(html)).toEqual([]);
    expect(html).not.toContain("<script");
    expect((await app.request("/api/docs/assets/swagger-ui-bundle.js")).status).toBe(404);
  });

  it("GET /health answers ok without auth", async () => {
    const { app } = testApp();
    const res = await app.request("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("the base path is configurable", async () => {
    const { app } = testApp({ configInput: { basePath: "/v2" } });
    expect((await consultar(app, QUERY)).status).toBe(404);
    const res = await app.request("/v2/ConsultaAereo/Consultar", {
      method: "POST",
      headers: { Authorization: "Bearer test-api-key-0123456789" },
      body: JSON.stringify(QUERY),
    });
    expect(res.status).toBe(200);
    const doc = (await (await app.request("/v2/openapi.json")).json()) as OpenApiDoc;
    expect(Object.keys(doc.paths)).toContain("/v2/ConsultaAereo/Consultar");
  });

  it("CORS is off by default and answers preflights for the configured origins", async () => {
    const preflight = { method: "OPTIONS", headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" } };
    const off = await testApp().app.request("/api/ConsultaAereo/Consultar", preflight);
    expect(off.headers.get("access-control-allow-origin")).toBeNull();
    const { app } = testApp({ configInput: { cors: { origins: ["https://app.example"] } } });
    const on = await app.request("/api/ConsultaAereo/Consultar", preflight);
    expect(on.status).toBe(204);
    expect(on.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(on.headers.get("access-control-allow-headers")).toContain("Last-Event-ID");
    const other = await app.request("/api/ConsultaAereo/Consultar", { ...preflight, headers: { ...preflight.headers, Origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const limited = await consultar(app, QUERY, { Origin: "https://app.example" });
    expect(limited.res.headers.get("access-control-expose-headers")).toContain("Retry-After");
  });

  it("logs one JSON line per request with its id, status and duration", async () => {
    const { app, logs } = testApp();
    const res = await consultar(app, { Token: "nope" });
    const line = logs.records.find((r) => r.msg === "request")!;
    expect(line).toMatchObject({ level: "info", method: "POST", path: "/api/ConsultaAereo/Consultar", status: 404, requestId: res.body.RequestId, tenant: "apikey:acme" });
    expect(typeof line["durationMs"]).toBe("number");
  });
});
