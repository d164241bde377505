/**
 * What a newcomer tripped on in the demo page, in real Chromium against the demo server on the simulator: the
 * price calendar says what its prices are (a legend), switching to a round trip after a calendar click gives a
 * search the API accepts, on a 390 px phone every day of the calendar is in view with its prices inside their
 * cells and the calendar's choice is not cut, and the OTA comparison compares fares within a cabin.
 */
import { resolveRelativeDate, type ModeBEnvelope } from "@voar/core";
import { createClient, type SearchRequest } from "@voar/http-adapter/fetch";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "../../src/server/demo-server.js";
import { browserAvailability, launchChromium } from "./chromium.js";
import { shot, submitSearch, text, waitComplete, waitForForm } from "./page-steps.js";

const availability = browserAvailability();

/** Every day of the calendar on screen has answered. */
const calendarDone = (page: Page) =>
  page.waitForFunction(
    () => {
      const days = [...document.querySelectorAll(".calendar__day")];
      return days.length > 0 && days.every((e) => e.getAttribute("data-estado") === "concluido");
    },
    undefined,
    { timeout: 60_000 },
  );

if (availability.kind === "fail") {
  describe("the demo page for a newcomer, in Chromium", () => {
    it("needs Chromium under CI", () => {
      throw new Error(availability.reason);
    });
  });
} else if (availability.kind === "skip") {
  describe.skip(`the demo page for a newcomer, in Chromium (skipped: ${availability.reason})`, () => {
    it("reads as a newcomer expects", () => undefined);
  });
} else {
  describe("the demo page for a newcomer, in Chromium", () => {
    let demo: DemoServer;
    let browser: Browser;
    const searches: SearchRequest[] = [];

    const open = async (viewport: { width: number; height: number }) => {
      const context = await browser.newContext({ viewport, locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
      const page = await context.newPage();
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().endsWith("/api/ConsultaAereo/Stream")) searches.push(JSON.parse(r.postData() ?? "{}") as SearchRequest);
      });
      await page.goto(demo.url);
      await waitForForm(page);
      return page;
    };

    beforeAll(async () => {
      demo = await startDemoServer({ port: 0, hostname: "127.0.0.1", latencyMs: [100, 400], log: () => undefined });
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await demo?.close();
    });

    it("the calendar has a legend, and a round trip chosen after a calendar click past the old return is a search the API accepts", async () => {
      const page = await open({ width: 1280, height: 900 });
      // A departure two months out, one way: the form's return (a week after the first departure) moves with it.
      const ida = resolveRelativeDate("+60", new Date());
      await page.locator("#campo-ida").fill(ida);
      await submitSearch(page);
      await calendarDone(page);
      const legend = text(await page.locator('[data-testid="calendario-legenda"]').textContent());
      expect(legend).toContain("paga em dinheiro (R$");
      expect(legend).toContain("de menos milhas (mi");
      expect(legend).toMatch(/verde.*vermelho/);
      expect(await page.locator('[data-testid="calendario-legenda"]').isVisible()).toBe(true);

      // The last day of the strip, three days after the one asked.
      const last = page.locator(".calendar__day").last();
      const day = (await last.getAttribute("data-date"))!;
      await last.click();
      await waitComplete(page);
      expect(searches.at(-1)?.Ida).toBe(day);
      await page.locator('input[name="viagem"]').nth(1).check();
      const volta = await page.locator("#campo-volta").inputValue();
      expect(volta > day, `return ${volta} after the departure ${day}`).toBe(true);
      await submitSearch(page);
      await waitComplete(page);
      expect(await page.locator(".field-error").count()).toBe(0);
      expect(searches.at(-1)).toMatchObject({ Ida: day, Volta: volta });
      await shot(page, "novato-01-ida-e-volta-depois-do-calendario");
      await page.context().close();
    });

    it("on a 390 px phone every day of the calendar is in view, its prices inside their cells, and the calendar's choice is not cut", async () => {
      const page = await open({ width: 390, height: 844 });
      const select = page.locator("#campo-calendario");
      // The option shown fits its box: the width its text needs (the select's own font), its padding and arrow.
      const fits = await select.evaluate((el: HTMLSelectElement) => {
        const style = getComputedStyle(el);
        const canvas = document.createElement("canvas").getContext("2d")!;
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const needed = canvas.measureText(el.selectedOptions[0]!.text).width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 20;
        return { needed, width: el.clientWidth, option: el.selectedOptions[0]!.text };
      });
      expect(fits.needed, `"${fits.option}" needs ${fits.needed} px of ${fits.width}`).toBeLessThanOrEqual(fits.width);

      await submitSearch(page);
      await calendarDone(page);
      await page.locator('[data-testid="calendario"]').scrollIntoViewIfNeeded();
      const layout = await page.locator(".calendar__days").evaluate((list) => {
        const days = [...list.querySelectorAll<HTMLElement>(".calendar__day")].map((day) => {
          const box = day.getBoundingClientRect();
          const inner = [...day.querySelectorAll<HTMLElement>(".calendar__cash, .calendar__miles, .calendar__date")].map((s) => s.getBoundingClientRect());
          return {
            date: day.dataset["date"],
            asked: day.classList.contains("calendar__day--asked"),
            left: box.left,
            right: box.right,
            // The least room between a price (or the date) and its cell's edges.
            margin: Math.min(...inner.map((s) => Math.min(s.left - box.left, box.right - s.right))),
          };
        });
        return { days, scrolls: list.scrollWidth > list.clientWidth + 1, viewport: window.innerWidth };
      });
      expect(layout.scrolls, "the days wrap on a phone: none is beyond a sideways scroll").toBe(false);
      expect(layout.days).toHaveLength(7);
      for (const d of layout.days) {
        expect(d.left, `${d.date} starts in view`).toBeGreaterThanOrEqual(0);
        expect(d.right, `${d.date} ends in view`).toBeLessThanOrEqual(layout.viewport);
        expect(d.margin, `${d.date}: its prices keep off the cell's edges`).toBeGreaterThanOrEqual(4);
      }
      expect(layout.days.filter((d) => d.asked)).toHaveLength(1);
      await shot(page, "novato-02-calendario-390px", true);
      await page.context().close();
    });

    it("the OTA comparison compares a fare with the fares of its own cabin, another cabin apart", async () => {
      const page = await open({ width: 1280, height: 900 });
      // Typed codes (the form resolves them when sent), each suggestion list closed as a person does, with Escape.
      await page.locator("#campo-origem").fill("GRU");
      await page.keyboard.press("Escape");
      await page.locator("#campo-destino").fill("LIS");
      await page.keyboard.press("Escape");
      await page.locator('input[name="modo"][value="otas"]').check();
      await submitSearch(page);
      await waitComplete(page);
      const api = createClient({ baseUrl: demo.apiUrl, token: demo.config.apiKey, transport: "poll" });
      const answer = (await api.searchAll(searches.at(-1)!)) as ModeBEnvelope;
      // A flight some agency sells in another cabin than its best offer's.
      const at = answer.Data[0]!.Ida.slice(0, 20).findIndex((o) => (o.Outros ?? []).some((x) => !/econ/i.test(x.Cabine)) && /econ/i.test(o.Voos[0]!.ClasseStr));
      expect(at, "a flight with offers in two cabins").toBeGreaterThanOrEqual(0);
      const card = page.locator('[data-testid="oferta"]').nth(at);
      await card.locator(".offer__compare summary").click();
      const rows = await card.locator('[data-testid="comparacao"] tbody tr').evaluateAll((trs) =>
        trs.map((tr) => ({ cabine: tr.getAttribute("data-cabine") ?? "", diferenca: (tr.querySelector('[data-testid="diferenca"]')?.textContent ?? "").replace(/\s+/g, " ").trim() })),
      );
      const cabins = rows.map((r) => r.cabine);
      // Each cabin's rows together, the best offer's (Econômica) first.
      expect(cabins[0]).toBe("Econômica");
      expect(cabins.filter((c, i) => c !== cabins[i - 1])).toEqual([...new Set(cabins)]);
      const other = rows.findIndex((r) => r.cabine !== "Econômica");
      expect(rows[other]!.diferenca).toBe(`mais barata em ${rows[other]!.cabine}`);
      // No fare of another cabin is given as a percentage above the best Econômica fare.
      const percents = rows.slice(1).filter((r) => r.diferenca.startsWith("+")).map((r) => Number(/\(\+(\d+)\s?%\)/.exec(r.diferenca)?.[1]));
      expect(rows.filter((r) => r.cabine !== "Econômica" && r.diferenca.startsWith("+")).every((r) => rows.some((x) => x.cabine === r.cabine && x.diferenca.startsWith("mais barata")))).toBe(true);
      expect(percents.every((p) => p < 200), `differences within a cabin: ${percents.join(", ")} %`).toBe(true);
      await card.scrollIntoViewIfNeeded();
      await shot(page, "novato-03-comparacao-por-cabine");
      await page.context().close();
    });
  });
}
