import { strict as assert } from "node:assert";
import { createOwnApp } from "./own-app.js";

const app = createOwnApp("a-session-signing-secret-of-32-characters");
const ida = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const query = { Origem: "CNF", Destino: "SDU", Ida: ida };

/** Signs in and returns the session cookie to send. */
const login = async (username: string, password: string) => {
  const res = await app.request("/login", { method: "POST", body: JSON.stringify({ username, password }) });
  assert.equal(res.status, 200, `login of ${username}`);
  return res.headers.get("set-cookie")!.split(";")[0]!;
};
const consultar = async (body: unknown, cookie?: string) => {
  const res = await app.request("/flights/ConsultaAereo/Consultar", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

// Without a session the app's own auth refuses, in the app's own shape.
const anonymous = await consultar(query);
assert.equal(anonymous.status, 401);
assert.deepEqual(anonymous.body, { error: "sign in first" });
console.log("  ✓ without a session: the app's own 401, Voar not reached");

// A signed-in user searches through Voar, polling by Token until Completed.
const ana = await login("ana", "ana-password-123");
assert.deepEqual(await (await app.request("/me", { headers: { Cookie: ana } })).json(), { user: "ana", agency: "agencia-norte" });
let answer = await consultar(query, ana);
assert.equal(answer.status, 200);
const token = answer.body["Token"];
for (let polls = 0; answer.body["Completed"] !== true; polls++) {
  assert.ok(polls < 100, "the search completes");
  await new Promise((resolve) => setTimeout(resolve, 100));
  answer = await consultar({ Token: token }, ana);
  assert.equal(answer.status, 200);
}
assert.ok((answer.body["TotalItens"] as number) > 0);
console.log(`  ✓ ana (agencia-norte) searched under /flights: completed with ${answer.body["TotalItens"]} price groups`);

// Voar's own errors come through unchanged: its envelope, naming the field.
const invalid = await consultar({ Origem: "CNF", Ida: ida }, ana);
assert.equal(invalid.status, 400);
assert.deepEqual((invalid.body["Erro"] as { Codigo: string; Campos: { Campo: string }[] }).Codigo, "REQUISICAO_INVALIDA");
assert.ok((invalid.body["Erro"] as { Campos: { Campo: string }[] }).Campos.some((f) => f.Campo === "Destino"));
console.log("  ✓ a body without Destino: Voar's 400 REQUISICAO_INVALIDA naming Destino");

// Another agency is another Voar tenant: it cannot read ana's search, and the same query is its own search.
const bruno = await login("bruno", "bruno-password-123");
const foreign = await consultar({ Token: token }, bruno);
assert.equal(foreign.status, 404);
assert.equal((foreign.body["Erro"] as { Codigo: string }).Codigo, "BUSCA_EXPIRADA");
const own = await consultar(query, bruno);
assert.notEqual(own.body["Token"], token);
console.log("  ✓ bruno (agencia-sul) cannot poll ana's search (404 BUSCA_EXPIRADA) and gets a search of his own");
