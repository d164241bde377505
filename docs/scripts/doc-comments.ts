/**
 * The doc comments of the code, read with the TypeScript compiler: what the generated pages say about a
 * setting or an error is what its source says, not a copy kept by hand.
 */
import { readFile } from "node:fs/promises";
import ts from "typescript";

const source = async (file: string) => ts.createSourceFile(file, await readFile(file, "utf8"), ts.ScriptTarget.Latest, true);

/** A node's own TSDoc text (its `/** … *\/` comment, tags left out), on one line; "" when it has none. */
export const docOf = (node: ts.Node): string =>
  ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((doc) => (typeof doc.comment === "string" ? doc.comment : ts.getTextOfJSDocComment(doc.comment) ?? ""))
    .join(" ")
    .replace(/\{@link\s+([^}\s|]+)(?:[\s|][^}]*)?\}/g, "`$1`")
    .replace(/\s+/g, " ")
    .trim();

/** The TSDoc of each exported class, by class name. */
export const classDocs = async (file: string): Promise<ReadonlyMap<string, string>> => {
  const found = new Map<string, string>();
  for (const statement of (await source(file)).statements) {
    if (ts.isClassDeclaration(statement) && statement.name) found.set(statement.name.text, docOf(statement));
  }
  return found;
};

/** The TSDoc of each property of an object literal, with the literal's sorted key list as its identity. */
export interface ObjectLiteralDocs {
  readonly keys: string;
  readonly docs: ReadonlyMap<string, string>;
}

/** The object literals handed to `strictObject(...)`/`object(...)` in files, with their properties' TSDoc. */
export const schemaObjectDocs = async (files: readonly string[]): Promise<readonly ObjectLiteralDocs[]> => {
  const out: ObjectLiteralDocs[] = [];
  for (const file of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && /(^|\.)(strictObject|object)$/.test(node.expression.getText()) && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
        const docs = new Map<string, string>();
        const names: string[] = [];
        for (const p of node.arguments[0].properties) {
          if (!p.name || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) continue;
          names.push(p.name.text);
          const doc = docOf(p);
          if (doc) docs.set(p.name.text, doc);
        }
        out.push({ keys: names.sort().join(","), docs });
      }
      ts.forEachChild(node, visit);
    };
    visit(await source(file));
  }
  return out;
};

/** The TSDoc of each property of the object literal assigned to `const name = {...}` in a file. */
export const constObjectDocs = async (file: string, name: string): Promise<ReadonlyMap<string, string>> => {
  const docs = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.name.getText() === name && node.initializer) {
      let init: ts.Expression = node.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
      if (ts.isObjectLiteralExpression(init)) {
        for (const p of init.properties) if (p.name && ts.isIdentifier(p.name)) docs.set(p.name.text, docOf(p));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(await source(file));
  return docs;
};

/** The TSDoc of `export const name = ...` in a file ("" when it has none). */
export const exportedConstDoc = async (file: string, name: string): Promise<string> => {
  for (const statement of (await source(file)).statements) {
    if (ts.isVariableStatement(statement) && statement.declarationList.declarations.some((d) => d.name.getText() === name)) return docOf(statement);
  }
  throw new Error(`${file}: no exported const ${name}`);
};
