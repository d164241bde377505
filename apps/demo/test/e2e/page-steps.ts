/** Steps and readings of the demo page shared by the browser tests. */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { ARTIFACTS_DIR } from "./chromium.js";

/** A screenshot of a step, animations finished, in the artifacts folder. */
export const shot = (page: Page, name: string, fullPage = false) => page.screenshot({ path: `${ARTIFACTS_DIR}${name}.png`, fullPage, animations: "disabled" });
/** Text with its white space collapsed, as a person reads it. */
export const text = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

/** What the page recorded about the progress bar and the rows while a search ran. */
export interface Watch {
  /** Every value the progress bar took, in order. */
  progress: number[];
  /** Rows that stayed on screen from one render to the next, counted while the search ran. */
  kept: number;
  /** Rows that stayed on screen but were drawn as a new DOM node (the reader would lose their place). */
  redrawn: string[];
  /** Renders where rows that stayed changed their order relative to each other. */
  reordered: number;
}

/**
 * Watches, in the page itself, the progress bar and the rows of each render: a row that stays must be the
 * same DOM node and keep its order relative to the other rows that stay.
 */
export const watchProgress = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __watch: Watch };
    w.__watch = { progress: [], kept: 0, redrawn: [], reordered: 0 };
    const nodes = new Map<string, string>();
    let previous: string[] = [];
    let n = 0;
    const observer = new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      if (!bar) return;
      const value = Number(bar.getAttribute("aria-valuenow"));
      if (w.__watch.progress.at(-1) !== value) w.__watch.progress.push(value);
      const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="lista-a"] > li')];
      const keys = rows.map((li) => li.dataset["key"] ?? "");
      rows.forEach((li, i) => {
        const key = keys[i]!;
        li.dataset["no"] ??= String(++n);
        if (previous.includes(key)) {
          w.__watch.kept++;
          if (nodes.get(key) !== li.dataset["no"]) w.__watch.redrawn.push(key);
        }
        nodes.set(key, li.dataset["no"]!);
      });
      const stayed = keys.filter((k) => previous.includes(k));
      if (stayed.join("|") !== previous.filter((k) => keys.includes(k)).join("|")) w.__watch.reordered++;
      previous = keys;
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });

/** The page is ready once the prefilled airports are looked up (the form shows "Belo Horizonte (CNF)"). */
export const waitForForm = (page: Page) =>
  page.waitForFunction(() => (document.getElementById("campo-origem") as HTMLInputElement | null)?.value.includes("(CNF)") === true, undefined, { timeout: 15_000 });

/** Sends the search form and waits for the progress panel. */
export const submitSearch = async (page: Page) => {
  await page.locator("form.search-form button[type=submit]").click();
  await page.locator('[role="progressbar"]').waitFor();
};
/** Waits until the API says the search is complete. */
export const waitComplete = (page: Page) => page.locator('section.progress[data-status="completa"]').waitFor({ timeout: 30_000 });
/** The prices of the Mode A rows on screen, in order. */
export const pricesOnPage = async (page: Page) => (await page.locator('[data-testid="lista-a"] [data-testid="preco"]').allTextContents()).map(text);
/** The airlines of the Mode A rows on screen, in order. */
export const airlinesOnPage = (page: Page) => page.locator('[data-testid="lista-a"] [data-testid="grupo"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-cia")));

/**
 * The form's fields line up: the Companhia label starts where its list starts (not centred above it), and
 * the three passenger boxes share their top and height whatever lines their labels wrap to.
 */
export const expectAligned = async (page: Page) => {
  const box = async (selector: string) => {
    const b = await page.locator(selector).boundingBox();
    if (!b) throw new Error(`${selector} is not on screen`);
    return b;
  };
  const [label, select] = [await box('label[for="campo-companhia"]'), await box("#campo-companhia")];
  expect(Math.abs(label.x - select.x), "Companhia label and list start at the same x").toBeLessThanOrEqual(1);
  expect(label.y + label.height, "Companhia label above its list").toBeLessThanOrEqual(select.y + 1);
  const inputs = await Promise.all(["#campo-adultos", "#campo-criancas", "#campo-bebes"].map(box));
  expect(new Set(inputs.map((i) => Math.round(i.y))).size, `passenger boxes at ${inputs.map((i) => i.y).join(", ")}`).toBe(1);
  expect(new Set(inputs.map((i) => Math.round(i.height))).size).toBe(1);
};
