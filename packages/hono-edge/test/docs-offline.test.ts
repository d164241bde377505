import { describe, expect, it } from "vitest";
import { nodeDocsAssets } from "../src/docs/node-docs-assets.js";
import { externalHosts, referencedUrls as referenced } from "./support/html.js";
import { testApp } from "./support/app.js";

describe("GET /api/docs on Node: the interactive reference works offline", () => {
  it("references no external host, only its own assets, and each answers 200 with its content type", async () => {
    const { app } = testApp({ docsAssets: nodeDocsAssets() });
    const res = await app.request("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(externalHosts(html)).toEqual([]);
    const urls = referenced(html);
    expect(urls.sort()).toEqual(["/api/docs/assets/docs-init.js", "/api/docs/assets/swagger-ui-bundle.js", "/api/docs/assets/swagger-ui.css"]);
    const types: Record<string, RegExp> = { css: /^text\/css/, js: /^text\/javascript/ };
    for (const url of urls) {
      const asset = await app.request(url);
      expect(asset.status, url).toBe(200);
      expect(asset.headers.get("content-type"), url).toMatch(types[url.split(".").at(-1)!]!);
      const body = await asset.text();
      expect(body.length, url).toBeGreaterThan(url.endsWith("init.js") ? 50 : 10_000);
    }
    // Swagger UI starts on the service's own document and asks no validator host for a badge.
    const init = await (await app.request("/api/docs/assets/docs-init.js")).text();
    expect(init).toContain('"url":"/api/openapi.json"');
    expect(init).toContain('"validatorUrl":null');
    expect((await app.request("/api/docs/assets/swagger-ui-bundle.js")).headers.get("cache-control")).toContain("max-age");
  });

  it("answers 404 for a file it does not serve, never a file outside the package", async () => {
    const { app } = testApp({ docsAssets: nodeDocsAssets() });
    for (const path of ["/api/docs/assets/package.json", "/api/docs/assets/..%2Fpackage.json", "/api/docs/assets/index.html"]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
    }
  });

  it("follows the base path", async () => {
    const { app } = testApp({ configInput: { basePath: "/v2" }, docsAssets: nodeDocsAssets() });
    const html = await (await app.request("/v2/docs")).text();
    expect(referenced(html)).toContain("/v2/docs/assets/swagger-ui-bundle.js");
    expect((await app.request("/v2/docs/assets/swagger-ui.css")).status).toBe(200);
    expect(await (await app.request("/v2/docs/assets/docs-init.js")).text()).toContain('"url":"/v2/openapi.json"');
  });
});
