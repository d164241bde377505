/**
 * The real upstream answers in `../shared/recorded` beside the repository (read in place, never copied).
 * When the folder is missing, suites using it fail with a clear message under CI and are skipped, with the
 * reason printed, elsewhere.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { describe, it } from "vitest";

/** `VOAR_RECORDED_DIR`, else `<repo root>/../shared/recorded/`. */
export const RECORDED_DIR: URL = process.env.VOAR_RECORDED_DIR
  ? new URL(`${process.env.VOAR_RECORDED_DIR.replace(/\/?$/, "/")}`, `file://${process.cwd()}/`)
  : new URL("../../../../../shared/recorded/", import.meta.url);

const missing = `recorded upstream answers are missing: expected the folder ${RECORDED_DIR.pathname} (shared/recorded beside the repository checkout; or set VOAR_RECORDED_DIR)`;

/** The recorded files, sorted. */
export const recordedFiles = (): string[] => readdirSync(RECORDED_DIR).filter((f) => f.endsWith(".json")).sort();

/** Parses a recorded file. */
export const loadRecorded = (file: string): unknown => JSON.parse(readFileSync(new URL(file, RECORDED_DIR), "utf8"));

/** A suite over the recorded answers (see the module comment). */
export const describeRecorded = (name: string, suite: () => void): void => {
  if (existsSync(RECORDED_DIR)) describe(name, suite);
  else if (process.env.CI === "true" || process.env.CI === "1") {
    describe(name, () => {
      it("needs the recorded upstream answers", () => {
        throw new Error(missing);
      });
    });
  } else {
    console.warn(`[skipped] ${name}: ${missing}`);
    describe.skip(name, suite);
  }
};
