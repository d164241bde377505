import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium (`apt-get install -y chromium`); Playwright's own browser download cannot work here. */
export const CHROMIUM_PATH = process.env["VOAR_CHROMIUM"] ?? "/usr/bin/chromium";

/** Where screenshots of each step go (gitignored). */
export const ARTIFACTS_DIR = fileURLToPath(new URL("../../artifacts/", import.meta.url));

/** Whether the browser tests can run, must fail (CI without Chromium), or are skipped with a reason. */
export type BrowserAvailability = { readonly kind: "ready" } | { readonly kind: "fail"; readonly reason: string } | { readonly kind: "skip"; readonly reason: string };

/** Chromium present: run. Missing under `CI=true`: fail, so CI never passes without the browser test. Else: skip. */
export const browserAvailability = (): BrowserAvailability => {
  if (existsSync(CHROMIUM_PATH)) return { kind: "ready" };
  const reason = `no Chromium at ${CHROMIUM_PATH}: install it with "apt-get update && apt-get install -y chromium" (or point VOAR_CHROMIUM at another binary)`;
  return process.env["CI"] === "true" ? { kind: "fail", reason } : { kind: "skip", reason };
};

/**
 * Headless Chromium with the flags this machine needs: no sandbox as root, no background network. In
 * Brazilian Portuguese, so that screenshots read as the audience sees the page (date fields show
 * DD/MM/AAAA when Debian's `chromium-l10n` is installed; without it they fall back to English).
 */
export const launchChromium = async (): Promise<Browser> => {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    env: { ...process.env, LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--lang=pt-BR",
    ],
  });
};
