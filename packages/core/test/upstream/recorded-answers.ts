/**
 * Access to the real upstream answers in `../shared/recorded` beside the repository (see its README).
 * They are read in place, never copied. When the folder is missing, suites using it fail with a clear
 * message under CI (`CI=true`) and are skipped, with the reason printed, elsewhere.
 */
import { describe, it } from "vitest";

// Core's tsconfig loads no Node types (it must stay runtime-neutral, and a `/// <reference types="node" />`
// here would make them global to the whole program), so the fs calls used are typed locally.
interface FileSystem {
  existsSync(path: URL): boolean;
  readFileSync(path: URL, encoding: "utf8"): string;
  readdirSync(path: URL): string[];
}
const fs = (await import("node:fs" as string)) as FileSystem;
const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};

/** The folder of recorded answers: `VOAR_RECORDED_DIR` (absolute, or relative to the working directory), else `<repo root>/../shared/recorded`. */
export const RECORDED_DIR: URL = env.VOAR_RECORDED_DIR
  ? new URL(env.VOAR_RECORDED_DIR.replace(/\/?$/, "/"), `file://${env.PWD ?? ""}/`)
  : new URL("../../../../../shared/recorded/", import.meta.url);

/** The recorded files these tests read. */
export const RECORDED = {
  modeAComplete: "modeA-all-airlines-complete-CNF-SDU.json",
  modeAFirstPoll: "modeA-all-airlines-first-poll-CNF-GIG.json",
  perAirlineGol: "per-airline-GOL-miles-and-cash-CNF-GIG.json",
  errorPermissionDenied: "error-permission-denied.json",
  requestBodies: "request-bodies-seen-in-clients.json",
} as const;

const missing = `recorded upstream answers are missing: expected the folder ${RECORDED_DIR.pathname} (shared/recorded beside the repository checkout; or set VOAR_RECORDED_DIR)`;

/** True when the recorded answers are available. */
export const hasRecorded = (): boolean => fs.existsSync(RECORDED_DIR);

/** The names of the recorded files. */
export const listRecorded = (): string[] => fs.readdirSync(RECORDED_DIR).sort();

/** Parses one recorded file. */
export const loadRecorded = (file: string): unknown => JSON.parse(fs.readFileSync(new URL(file, RECORDED_DIR), "utf8"));

/**
 * A suite over recorded answers: runs it when the folder exists; otherwise a failing test saying the folder
 * is missing under CI, or a skipped suite with the reason printed.
 */
export const describeRecorded = (name: string, suite: () => void): void => {
  if (hasRecorded()) {
    describe(name, suite);
  } else if (env.CI === "true" || env.CI === "1") {
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
