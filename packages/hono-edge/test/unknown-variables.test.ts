import { describe, expect, it } from "vitest";
import { ENTRY_VARS } from "../src/config/entry-vars.js";
import { ENV_VARS } from "../src/config/env-config.js";
import { knownVariables, unknownVariableMessage, unknownVariables } from "../src/config/unknown-variables.js";

describe("unknown VOAR_* variables", () => {
  it("are named with the closest variable the service reads", () => {
    const env = { VOAR_PROT: "8080", VOAR_UPSTREM_URL: "https://u.example/api", VOAR_API_KEY: "a:b", PATH: "/bin", VOAR_PORT: "8787", HOME: "/root" };
    expect(unknownVariables(env)).toEqual([
      { name: "VOAR_PROT", closest: "VOAR_PORT", distance: 2 },
      { name: "VOAR_UPSTREM_URL", closest: "VOAR_UPSTREAM_URL", distance: 1 },
      { name: "VOAR_API_KEY", closest: "VOAR_API_KEYS", distance: 1 },
    ]);
    expect(unknownVariableMessage(unknownVariables({ VOAR_PROT: "1" })[0]!)).toBe("VOAR_PROT is not a variable of the service (did you mean VOAR_PORT?)");
  });

  it("leave out every setting's variable and every entry's own, whoever adds them", () => {
    const every = Object.fromEntries([...Object.keys(ENV_VARS), ...Object.values(ENTRY_VARS)].map((name) => [name, "x"]));
    expect(unknownVariables(every)).toEqual([]);
    expect(knownVariables()).toEqual(expect.arrayContaining(["VOAR_CONFIG_FILE", "VOAR_STRICT_ENV", "VOAR_HOSTNAME", "VOAR_STORE_REDIS_URL"]));
  });

  it("leave out the demo's own VOAR_DEMO_* set in the same shell, and suggest no name that is not near", () => {
    expect(unknownVariables({ VOAR_DEMO_SEED: "42", VOAR_DEMO_API_KEY: "k", VOAR_DEMO_LATENCY_MS: "100-200" })).toEqual([]);
    const far = unknownVariables({ VOAR_SOMETHING_ELSE: "1" })[0]!;
    expect(unknownVariableMessage(far)).toBe("VOAR_SOMETHING_ELSE is not a variable of the service");
  });
});
