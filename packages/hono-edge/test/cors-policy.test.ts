import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../src/app/app-env.js";
import { corsPolicy } from "../src/middleware/cors-policy.js";

const appWith = (origins: "*" | string[], route: () => Response = () => new Response('{"ok":true}', { headers: { "content-type": "application/json", ETag: 'W/"t"' } })) => {
  const policy = corsPolicy({ origins, maxAgeSeconds: 600 });
  const app = new Hono<AppEnv>();
  if (policy) app.use("*", policy);
  app.post("/api/x", route);
  return app;
};

describe("cross-origin access (corsPolicy)", () => {
  it("is off when no origin is configured", () => {
    expect(corsPolicy({ origins: [], maxAgeSeconds: 600 })).toBeUndefined();
  });

  it("answers a preflight for a configured origin, allowing the headers polling sends", async () => {
    const res = await appWith(["https://app.example"]).request("/api/x", {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, if-none-match" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(res.headers.get("access-control-allow-headers")).toContain("If-None-Match");
    expect(res.headers.get("access-control-max-age")).toBe("600");
  });

  it("adds the headers to the route's answer: the origin if configured, the readable headers, Vary", async () => {
    const app = appWith(["https://app.example"]);
    const res = await app.request("/api/x", { method: "POST", headers: { Origin: "https://app.example" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(res.headers.get("access-control-expose-headers")?.split(",")).toEqual(expect.arrayContaining(["ETag", "X-Request-Id", "Retry-After", "X-Voar-Status"]));
    expect(res.headers.get("vary")).toBe("Origin");
    expect(res.headers.get("etag")).toBe('W/"t"');
    const other = await app.request("/api/x", { method: "POST", headers: { Origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(other.headers.get("vary")).toBe("Origin");
  });

  it("allows any origin with *, without Vary", async () => {
    const res = await appWith("*").request("/api/x", { method: "POST", headers: { Origin: "https://any.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("vary")).toBeNull();
  });

  it("copies an answer whose headers cannot change (one from fetch, as the Worker forwards), keeping its status and body", async () => {
    const immutable = () => {
      const res = Response.redirect("https://app.example/elsewhere", 307);
      expect(() => res.headers.set("x-probe", "1")).toThrow(TypeError);
      return res;
    };
    const res = await appWith(["https://app.example"], immutable).request("/api/x", { method: "POST", headers: { Origin: "https://app.example" } });
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("https://app.example/elsewhere");
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
  });
});
