import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactRecord, redactText } from "../src/logging/log-redactor.js";

/**
 * Whatever a secret is called (English or Portuguese, any case, a prefix or suffix of the field's own) and however
 * it is written (JSON, escaped JSON, a form body, XML, a header dump, a connection string, a query string, an
 * `Authorization` credential of any length), the log never holds its value, and what helps an operator stays.
 */

/** Field names that hold secrets, as upstreams, agencies and libraries write them. */
const SECRET_NAMES = [
  "password", "Password", "senha", "Senha", "SENHA", "NovaSenha", "senha_atual", "chave", "Chave", "ChaveAcesso", "chave_api",
  "chave-de-acesso", "segredo", "credencial", "credenciais", "assinatura", "palavra-passe", "token", "access_token", "refresh_token",
  "client_secret", "x-api-key", "apikey", "AccountKey", "Pwd", "pass", "auth", "private_key", "sessionId",
] as const;

/** A secret value: a marker no surrounding text holds, then characters a password or key may have. */
const secret = fc
  .stringMatching(/^[A-Za-z0-9._~+/=!#$%*-]{1,30}$/)
  .map((tail) => `Qz${tail}`);
const name = fc.constantFrom(...SECRET_NAMES).chain((n) => fc.constantFrom(n, n.toLowerCase(), n.toUpperCase()));

/** The formats a secret arrives in, with what must stay beside it. */
const FORMATS: readonly { readonly label: string; readonly write: (name: string, value: string) => string; readonly kept: string }[] = [
  { label: "JSON", write: (n, v) => `upstream said {"usuario":"agencia","${n}":"${v}","id":7}`, kept: '"usuario":"agencia"' },
  { label: "JSON with spaces", write: (n, v) => `body: { "usuario" : "agencia", "${n}" : "${v}" }`, kept: '"usuario" : "agencia"' },
  { label: "escaped JSON", write: (n, v) => `Error: {\\"usuario\\":\\"agencia\\",\\"${n}\\":\\"${v}\\"}`, kept: '\\"usuario\\":\\"agencia\\"' },
  { label: "form body", write: (n, v) => `grant_type=password&usuario=agencia&${n}=${v}&client_id=app`, kept: "usuario=agencia" },
  { label: "XML", write: (n, v) => `<Login><Usuario>agencia</Usuario><${n}>${v}</${n}></Login>`, kept: "<Usuario>agencia</Usuario>" },
  { label: "XML with a namespace", write: (n, v) => `<s:Body><ns:Usuario>agencia</ns:Usuario><ns:${n} tipo="texto">${v}</ns:${n}></s:Body>`, kept: "<ns:Usuario>agencia</ns:Usuario>" },
  { label: "headers", write: (n, v) => `Host: up.example\r\n${n}: ${v}\r\nAccept: application/json`, kept: "Accept: application/json" },
  { label: "connection string", write: (n, v) => `Server=db.local;Database=voos;${n}=${v};Encrypt=True`, kept: "Encrypt=True" },
  { label: "query string", write: (n, v) => `GET https://up.example/api?usuario=agencia&${n}=${v}&x=1`, kept: "usuario=agencia" },
];

describe("log redaction, over names and formats", () => {
  it("a secret-named field's value never reaches the log, in any format; the text around it stays", () => {
    fc.assert(
      fc.property(name, secret, fc.constantFrom(...FORMATS), (n, v, format) => {
        const out = redactText(format.write(n, v));
        expect(out, `${format.label}: ${out}`).not.toContain(v);
        expect(out).toContain(format.kept);
      }),
      { numRuns: 2_000 },
    );
  });

  it("an Authorization or Proxy-Authorization credential of any length, Bearer or Basic, is redacted; so is a bearer credential in prose", () => {
    const credential = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,40}$/).map((t) => `Qz${t}`);
    fc.assert(
      fc.property(fc.constantFrom("Authorization", "authorization", "Proxy-Authorization"), fc.constantFrom("Bearer", "bearer", "Basic"), credential, (header, scheme, value) => {
        for (const text of [`${header}: ${scheme} ${value}\r\nAccept: */*`, `{"${header}":"${scheme} ${value}"}`]) expect(redactText(text)).not.toContain(value);
        if (scheme !== "Basic") expect(redactText(`refused the ${scheme} ${value} it was sent`)).not.toContain(value);
      }),
      { numRuns: 1_000 },
    );
  });

  it("a record field named like a secret is redacted whole, whatever its value", () => {
    fc.assert(
      fc.property(name, fc.oneof(secret, fc.integer().map(String)), (n, v) => {
        expect(JSON.stringify(redactRecord({ level: "info", msg: "login.failed", username: "agencia", [n]: v }))).not.toContain(`"${v}"`);
      }),
      { numRuns: 500 },
    );
  });
});
