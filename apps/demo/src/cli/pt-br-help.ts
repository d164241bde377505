import type { Argument, Command, Help, Option } from "commander";

/**
 * The CLI's help and argument errors in Portuguese. commander writes its own words in English (`Usage:`,
 * `display help for command`, `(default: "a")`, `error: unknown option`); these are its documented hooks
 * (`helpOption`, `helpCommand`, `configureHelp`, `configureOutput`) set to the words of the rest of the CLI.
 */

/** Section titles of the help, by commander's English title. */
const TITLES: Readonly<Record<string, string>> = {
  "Usage:": "Uso:",
  "Arguments:": "Argumentos:",
  "Options:": "Opções:",
  "Commands:": "Comandos:",
  "Global Options:": "Opções globais:",
};

/** commander's argument errors (its `error: ...` lines), each with the Portuguese sentence it becomes. */
const ERRORS: readonly (readonly [RegExp, (...groups: string[]) => string])[] = [
  [/^error: unknown command '(.*)'$/, (name) => `erro: comando desconhecido '${name}'`],
  [/^error: unknown option '(.*)'$/, (flag) => `erro: opção desconhecida '${flag}'`],
  [/^error: missing required argument '(.*)'$/, (name) => `erro: falta o argumento obrigatório <${name}>`],
  [/^error: option '(.*)' argument missing$/, (flags) => `erro: falta o valor da opção '${flags}'`],
  [/^error: too many arguments(?: for '(.*)')?\. Expected (\d+) arguments? but got (\d+)\.$/, (_cmd, expected, got) => `erro: argumentos demais: esperava ${expected}, recebeu ${got}`],
  [/^error: required option '(.*)' not specified$/, (flags) => `erro: a opção obrigatória '${flags}' não foi informada`],
  [/^\(Did you mean (.*)\?\)$/, (what) => `(Você quis dizer ${what}?)`],
];

/** One of commander's error lines in Portuguese; a line it does not know is kept as written. */
export const portugueseErrorLine = (line: string): string => {
  for (const [pattern, say] of ERRORS) {
    const match = pattern.exec(line);
    if (match) return say(...match.slice(1).map((g) => g ?? ""));
  }
  return line;
};

/** commander's error text (one or more lines) in Portuguese. */
export const portugueseError = (text: string): string => text.split("\n").map(portugueseErrorLine).join("\n");

/** `(padrão: a)`: a default as a person types it, not as JSON (`"a"`). */
const withDefault = (description: string, value: unknown, shown: string | undefined): string =>
  value === undefined ? description : `${description} (padrão: ${shown ?? String(value)})`;

const argumentTerm = (a: Argument): string => {
  const name = `${a.name()}${a.variadic ? "..." : ""}`;
  return a.required ? `<${name}>` : `[${name}]`;
};

/** The help's formatting hooks in Portuguese (see commander's `Help`). */
const helpConfiguration: Partial<Help> = {
  styleTitle: (title: string) => TITLES[title] ?? title,
  optionDescription: (o: Option) => {
    // commander shows no default for a plain flag (`--json`); neither do we.
    const shown = o.required || o.optional ? o.defaultValue : undefined;
    return withDefault(o.description, shown, o.defaultValueDescription);
  },
  argumentDescription: (a: Argument) => withDefault(a.description, a.defaultValue, a.defaultValueDescription),
  subcommandTerm: (cmd: Command) => [cmd.name(), cmd.options.length > 0 ? "[opções]" : "", ...cmd.registeredArguments.map(argumentTerm)].filter(Boolean).join(" "),
  // Every command has the help option, so `[opções]` always.
  commandUsage: (cmd: Command) => {
    const names: string[] = [];
    for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
    return [...names, "[opções]", cmd.commands.length > 0 ? "[comando]" : "", ...cmd.registeredArguments.map(argumentTerm)].filter(Boolean).join(" ");
  },
};

/**
 * Sets a command's help and argument errors in Portuguese: call it on the program before adding its
 * subcommands, which inherit the help option, the help command, the formatting and the error output.
 */
export const inPortuguese = (program: Command, write: { readonly out: (s: string) => void; readonly err: (s: string) => void }): Command =>
  program
    .helpOption("-h, --help", "mostra esta ajuda")
    .helpCommand("help [comando]", "mostra a ajuda de um comando")
    .configureHelp(helpConfiguration)
    .configureOutput({ writeOut: write.out, writeErr: write.err, outputError: (text, errWrite) => errWrite(portugueseError(text.replace(/\n$/, "")) + "\n") });
