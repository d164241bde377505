import pc from "picocolors";

/** The colors the CLI writes with: picocolors' functions, each the identity when colors are off. */
export type Colors = ReturnType<typeof pc.createColors>;

/** What decides whether to color: the output stream and the environment. */
export interface ColorContext {
  readonly out: { readonly isTTY?: boolean | undefined };
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Whether the CLI colors its output: never when `NO_COLOR` is set to anything but an empty string
 * (no-color.org), always when `FORCE_COLOR` is set and not `0`, else only on a terminal that is not
 * `TERM=dumb`. A pipe, a file or a CI log gets plain text (no ANSI codes).
 */
export const colorEnabled = ({ out, env }: ColorContext): boolean => {
  if (env["NO_COLOR"] !== undefined && env["NO_COLOR"] !== "") return false;
  const force = env["FORCE_COLOR"];
  if (force !== undefined && force !== "" && force !== "0") return true;
  return out.isTTY === true && env["TERM"] !== "dumb";
};

/** The colors for an output stream in an environment. */
export const colorsFor = (context: ColorContext): Colors => pc.createColors(colorEnabled(context));
