/**
 * The price calendar strip of the demo page in real Chromium, against the demo server on the simulator: the
 * strip shows the week around the day asked, the day asked marked, days filling in as their searches answer
 * until each shows its cheapest cash fare and miles, as the API's own calendar says; a click on a day opens
 * that day's results (its search, the one the calendar ran for it).
 */
import type { CalendarEnvelope } from "@voar/core";
import { createClient, type SearchRequest } from "@voar/http-adapter/fetch";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "../../src/server/demo-server.js";
import { formatBrl, formatPoints } from "../../src/shared/pt-br-format.js";
import { browserAvailability, launchChromium } from "./chromium.js";
import { shot, submitSearch, text, waitComplete, waitForForm } from "./page-steps.js";

const availability = browserAvailability();

if (availability.kind === "fail") {
  describe("calendar strip in Chromium", () => {
    it("needs Chromium under CI", () => {
      throw new Error(availability.reason);
    });
  });
} else if (availability.kind === "skip") {
  describe.skip(`calendar strip in Chromium (skipped: ${availability.reason})`, () => {
    it("fills in and opens a day", () => undefined);
  });
} else {
  describe("calendar strip in Chromium", () => {
    let demo: DemoServer;
    let browser: Browser;
    let page: Page;
    const searches: SearchRequest[] = [];
    const calendars: Record<string, unknown>[] = [];

    beforeAll(async () => {
      // The demo's own airline times (1 to 3 s): every day of the strip searches at once, so the strip fills in
      // over its slowest airline's time, long enough to be seen filling in.
      demo = await startDemoServer({ port: 0, hostname: "127.0.0.1", latencyMs: [1_000, 3_000], log: () => undefined });
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
      page = await context.newPage();
      page.on("request", (r) => {
        if (r.method() !== "POST") return;
        if (r.url().endsWith("/api/ConsultaAereo/Stream")) searches.push(JSON.parse(r.postData() ?? "{}") as SearchRequest);
        if (r.url().endsWith("/api/ConsultaAereo/Calendario/Stream")) calendars.push(JSON.parse(r.postData() ?? "{}") as Record<string, unknown>);
      });
      await page.goto(demo.url);
      await waitForForm(page);
    });

    afterAll(async () => {
      await browser?.close();
      await demo?.close();
    });

    const days = () => page.locator('[data-testid="calendario"] .calendar__day');

    it("shows the week around the day asked, filling in as the days' searches answer, as the API's calendar says", async () => {
      await submitSearch(page);
      await days().first().waitFor();
      expect(await days().count()).toBe(7);
      const asked = searches.at(-1)!.Ida;
      expect(calendars.at(-1)).toMatchObject({ Ida: asked, DiasFlexiveis: 3 });
      expect(await page.locator(".calendar__day--asked").getAttribute("data-date")).toBe(asked);
      expect(await page.locator('.calendar__day[aria-pressed="true"]').getAttribute("data-date")).toBe(asked);
      // Days still searching when the strip first shows: they fill in as they answer.
      const first = await days().evaluateAll((els) => els.map((e) => e.getAttribute("data-estado")));
      expect(first.some((s) => s !== "concluido")).toBe(true);
      await shot(page, "calendario-01-preenchendo");
      await page.waitForFunction(() => [...document.querySelectorAll(".calendar__day")].every((e) => e.getAttribute("data-estado") === "concluido"), undefined, { timeout: 60_000 });
      await shot(page, "calendario-02-completo");

      // The same calendar through the API (the same tenant and query: the calendar on screen).
      const api = createClient({ baseUrl: demo.apiUrl, token: demo.config.apiKey, transport: "poll" });
      const reference: CalendarEnvelope = await api.calendarAll({ ...(calendars.at(-1) as { Origem: string; Destino: string; Ida: string }), DiasFlexiveis: 3 });
      const cash = (await page.locator('[data-testid="calendario-valor"]').allTextContents()).map(text);
      const miles = (await page.locator('[data-testid="calendario-milhas"]').allTextContents()).map(text);
      expect(cash).toEqual(reference.Data.map((d) => (d.MenorValor === null ? "—" : text(formatBrl(d.MenorValor)))));
      expect(miles).toEqual(reference.Data.map((d) => (d.MenorPontos === null ? "—" : `${formatPoints(d.MenorPontos)} mi`)));
      // The colour scale: the cheapest cash day is green (level 0), the dearest red (level 4).
      const prices = reference.Data.map((d) => d.MenorValor ?? Infinity);
      const cheapest = reference.Data[prices.indexOf(Math.min(...prices))]!.Data;
      expect(await page.locator(`.calendar__day[data-date="${cheapest}"]`).getAttribute("class")).toContain("calendar__day--l0");
    });

    it("a click on a day opens that day's results, the calendar staying as it is", async () => {
      await waitComplete(page);
      const target = page.locator(".calendar__day:not(.calendar__day--asked)").last();
      const date = (await target.getAttribute("data-date"))!;
      const before = calendars.length;
      await target.click();
      await page.waitForFunction((d) => document.querySelector('.calendar__day[aria-pressed="true"]')?.getAttribute("data-date") === d, date);
      expect(searches.at(-1)).toMatchObject({ Ida: date });
      expect(await page.locator("#campo-ida").inputValue()).toBe(date);
      await waitComplete(page);
      await page.locator('[data-testid="lista-a"] > li').first().waitFor();
      // The results on screen are the day's: the cheapest cash group is the strip's price of the day.
      const api = createClient({ baseUrl: demo.apiUrl, token: demo.config.apiKey, transport: "poll" });
      const day = await api.searchAll({ ...searches.at(-1)!, QuantidadePorPagina: 100 });
      expect(day.Completed).toBe(true);
      const stripPrice = text(await page.locator(`.calendar__day[data-date="${date}"] [data-testid="calendario-valor"]`).textContent());
      const groups = (day.Data[0] as { flights: { fareGroup: { priceWithTax: number }; segments: { PontosAdulto: number }[] }[] }).flights;
      const cashPrices = groups.filter((g) => g.segments[0]!.PontosAdulto < 0).map((g) => g.fareGroup.priceWithTax);
      expect(stripPrice).toBe(text(formatBrl(Math.min(...cashPrices))));
      expect(calendars.length).toBe(before); // no new calendar: the strip stays
      expect(await days().count()).toBe(7);
      await shot(page, "calendario-03-dia-aberto");
    });
  });
}
