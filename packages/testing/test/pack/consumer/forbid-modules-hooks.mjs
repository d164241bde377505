/** The resolve hook of forbid-modules.mjs (runs on Node's hooks thread). */
const forbidden = (process.env.VOAR_FORBIDDEN_MODULES ?? "").split(",").filter(Boolean);

export async function resolve(specifier, context, nextResolve) {
  const name = forbidden.find((f) => specifier === f || specifier.startsWith(`${f}/`));
  if (name) throw new Error(`forbidden module ${specifier} imported by ${context.parentURL ?? "the entry"}`);
  return nextResolve(specifier, context);
}
