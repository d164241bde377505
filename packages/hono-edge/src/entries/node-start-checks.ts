/**
 * What `voar-server` checks of its surroundings before and while it starts listening, each failure one clear
 * line on stderr and an exit code of its own, never a stack trace: unknown `VOAR_*` variables (a warning, or with
 * `VOAR_STRICT_ENV=true` an error) and an address it cannot listen on (a port in use, one it may not take).
 */
import type { Server } from "node:net";
import { ENTRY_VARS } from "../config/entry-vars.js";
import { unknownVariableMessage, unknownVariables } from "../config/unknown-variables.js";
import type { Logger } from "../logging/logger.js";

/** Exit codes of `voar-server` at start: an invalid configuration (1), or an address it cannot listen on (98). */
export const START_EXIT_CODES = { invalidConfiguration: 1, cannotListen: 98 } as const;

/**
 * Logs one `config.unknown_variable` warning per unknown `VOAR_*` variable, naming the closest known one; with
 * `VOAR_STRICT_ENV=true` returns them as configuration errors instead (the caller stops as for any invalid setting).
 */
export const checkVariables = (env: Readonly<Record<string, string | undefined>>, logger: Logger): string[] => {
  const strictText = env[ENTRY_VARS.strictEnv]?.trim().toLowerCase() ?? "";
  const strict = /^(true|1|on|yes)$/.test(strictText);
  if (strictText !== "" && !strict && !/^(false|0|off|no)$/.test(strictText)) return [`${ENTRY_VARS.strictEnv}: "${strictText}" is not true or false`];
  const unknown = unknownVariables(env);
  if (strict) return unknown.map(unknownVariableMessage);
  for (const v of unknown) {
    logger.log({ level: "warn", msg: "config.unknown_variable", variable: v.name, closest: v.closest, detail: `${unknownVariableMessage(v)}; ignored (${ENTRY_VARS.strictEnv}=true makes it an error)` });
  }
  return [];
};

/**
 * Stops the process with one line when a server cannot listen (`EADDRINUSE`: the port is taken; `EACCES`: a port
 * below 1024 without the right to it), exit code {@link START_EXIT_CODES}.cannotListen; any other server error
 * is left to Node.
 */
export const exitWhenCannotListen = (server: Server, where: { readonly what: string; readonly variable: string; readonly port: number; readonly hostname: string }): void => {
  server.once("error", (e: NodeJS.ErrnoException) => {
    const reason = e.code === "EADDRINUSE" ? "is already in use" : e.code === "EACCES" ? "may not be used by this user" : undefined;
    if (reason === undefined) throw e;
    process.stderr.write(`voar: cannot listen: ${where.what} ${where.hostname}:${where.port} ${reason} (${e.code}); stop what holds it or set ${where.variable} to another port\n`);
    process.exit(START_EXIT_CODES.cannotListen);
  });
};
