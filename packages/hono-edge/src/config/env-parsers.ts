/** How the text of a `VOAR_*` variable becomes a value of the configuration (see `env-config.ts`). */

export const list = (text: string): string[] =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

export const number = (text: string) => {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isFinite(n) ? { value: n } : { error: `"${text}" is not a number` };
};

/**
 * `a:b,c:d` with the first `:` of each item as separator (the value may contain `:`); `extra` is added to
 * every item (e.g. `compat: "legacy"`).
 */
export const pairs =
  <K extends string, V extends string>(k: K, v: V, what: string, extra: Record<string, string> = {}) =>
  (text: string) => {
    const out: Record<string, string>[] = [];
    for (const item of list(text)) {
      const at = item.indexOf(":");
      if (at <= 0) return { error: `each item must be ${what} (an item has no ':')` };
      out.push({ [k]: item.slice(0, at), [v]: item.slice(at + 1), ...extra });
    }
    return { value: out };
  };

export const LEGACY = { compat: "legacy" };

export const pagante = (text: string) => {
  const out: Record<string, boolean> = {};
  for (const item of list(text)) {
    const m = /^(\d+)=(true|false|on|off)$/i.exec(item);
    if (!m) return { error: `each item must be <Companhia id>=<on|off> (e.g. 1=off,2=on), got "${item}"` };
    out[m[1]!] = /^(true|on)$/i.test(m[2]!);
  }
  return { value: out };
};

export const ids = (text: string) => {
  const out: number[] = [];
  for (const item of list(text)) {
    if (!/^\d{1,6}$/.test(item)) return { error: `each item must be a Companhia id (e.g. 1,2,3), got "${item}"` };
    out.push(Number(item));
  }
  return { value: out };
};

export const boolean = (text: string) => {
  const t = text.trim().toLowerCase();
  return /^(true|on|1|yes)$/.test(t) ? { value: true } : /^(false|off|0|no)$/.test(t) ? { value: false } : { error: `"${text}" is not true or false` };
};

/** The Redis store replaces the in-memory one (a file's too); topologies merge, so two given at once are an error. */
export const redisStore = (key: "url" | "cluster" | "sentinels") => (t: string) => ({ value: { memory: undefined, redis: { [key]: key === "url" ? t.trim() : list(t) } } });
