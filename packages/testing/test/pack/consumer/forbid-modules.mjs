/**
 * `node --import ./forbid-modules.mjs app.mjs`: any import of a package named in VOAR_FORBIDDEN_MODULES
 * (comma-separated, e.g. `fast-check,ioredis`), from anywhere in node_modules, fails the import with the
 * importer's name. Proves a consumer's entries never load a package at run time, installed or not.
 */
import { register } from "node:module";

register("./forbid-modules-hooks.mjs", import.meta.url);
