import { createApp, defineConfig, silentLogger } from "@voar/hono-edge";
import { createSimulator } from "@voar/testing/simulator";
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { HTTPException } from "hono/http-exception";
import { jwt, sign } from "hono/jwt";

/** This application's own users: whoever they are, each belongs to an agency, and an agency is a Voar tenant. */
const USERS: Readonly<Record<string, { readonly password: string; readonly agency: string }>> = {
  ana: { password: "ana-password-123", agency: "agencia-norte" },
  bruno: { password: "bruno-password-123", agency: "agencia-sul" },
};

/** One Voar API key per agency, known only to this server: browsers never see them. */
const VOAR_KEYS: Readonly<Record<string, string>> = {
  "agencia-norte": "internal-key-norte-0123456789",
  "agencia-sul": "internal-key-sul-0123456789",
};

interface Session {
  readonly sub: string;
  readonly agency: string;
  readonly exp: number;
}

/**
 * One's own Hono app: its own login and session cookie (a JWT), its own routes, and the Voar service mounted
 * under `/flights`. A signed-in user's request goes to Voar with the API key of the user's agency, so searches,
 * rate limits and search ids are per agency; without a session, the app's own 401 answers and Voar never runs.
 */
export const createOwnApp = (secret: string) => {
  const voar = createApp({
    config: defineConfig({
      basePath: "/flights", // Voar's routes: /flights/ConsultaAereo/Consultar, /flights/ConsultaAereo/Stream...
      apiKeys: Object.entries(VOAR_KEYS).map(([name, key]) => ({ name, key })),
    }),
    sources: createSimulator({ latencyMs: 300 }).sources,
    logger: silentLogger,
  });

  const app = new Hono<{ Variables: { jwtPayload: Session } }>();

  app.post("/login", async (c) => {
    const { username, password } = await c.req.json<{ username?: string; password?: string }>();
    const user = username === undefined ? undefined : USERS[username];
    if (!user || user.password !== password) return c.json({ error: "wrong username or password" }, 401);
    const session: Session = { sub: username!, agency: user.agency, exp: Math.floor(Date.now() / 1000) + 3600 };
    setCookie(c, "session", await sign({ ...session }, secret, "HS256"), { httpOnly: true, sameSite: "Strict", path: "/" });
    return c.json({ agency: user.agency });
  });

  // Everything below needs a session: the cookie's JWT, checked by Hono's own middleware.
  app.use("/me", jwt({ secret, alg: "HS256", cookie: "session" }));
  app.use("/flights/*", jwt({ secret, alg: "HS256", cookie: "session" }));

  app.get("/me", (c) => c.json({ user: c.get("jwtPayload").sub, agency: c.get("jwtPayload").agency }));

  // Voar's routes, with the agency's key in place of whatever credential the browser sent.
  app.all("/flights/*", (c) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set("Authorization", `Bearer ${VOAR_KEYS[c.get("jwtPayload").agency]}`);
    headers.delete("Cookie");
    return voar.fetch(new Request(c.req.raw, { headers }));
  });

  // The app's own error shape for its own refusals (Voar answers its own errors with its envelope).
  app.onError((error, c) => (error instanceof HTTPException ? c.json({ error: "sign in first" }, error.status) : c.json({ error: "internal error" }, 500)));
  return app;
};
