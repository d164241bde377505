// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

/** Node built-ins and Node-only libraries that must never reach the runtime-neutral core. */
const nodeOnly = ["node:*", "fs", "path", "os", "http", "https", "net", "crypto", "stream", "undici", "ioredis", "@hono/node-server"];

/**
 * zod's `z` (and default) export is a namespace re-export that bundlers cannot shake: importing it keeps all
 * of zod (every locale, the JSON-schema converters) in a Worker's bundle; `import * as z` keeps what is used.
 */
const zodNamespace = {
  selector: "ImportDeclaration[source.value=/^zod(\\/.*)?$/] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
  message: 'Use `import * as z from "zod"`: the `z` export keeps all of zod in bundles.',
};

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "**/coverage/**", "**/artifacts/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["packages/core/src/**/*.ts"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-empty": ["error", { allowEmptyCatch: false }],
      "no-restricted-syntax": ["error", zodNamespace],
    },
  },
  {
    files: ["packages/core/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: nodeOnly.map((group) => ({ group: [group], message: "@voar/core is runtime-neutral: Web-standard APIs only." })),
          // The barrel re-exports every module, FastCheck included: under Node it loads fast-check at run time.
          paths: [{ name: "effect", message: "Import effect modules by subpath (effect/HashMap, effect/Effect...)." }],
        },
      ],
      "no-restricted-globals": ["error", { name: "process", message: "@voar/core is runtime-neutral." }, { name: "Buffer", message: "@voar/core is runtime-neutral." }, { name: "require", message: "ESM only." }],
    },
  },
);
