import { describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import ts from "typescript";

const CLIENT_DIR = "client";

/**
 * Every import or re-export of a file that survives compilation (verbatimModuleSyntax keeps any
 * declaration not written `import type` / `export type`, even `import { type X }`).
 */
function runtimeSpecifiers(file: string, text = readFileSync(file, "utf8")): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) found.push((node.moduleSpecifier as ts.StringLiteral).text);
    if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier) found.push((node.moduleSpecifier as ts.StringLiteral).text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) found.push(node.arguments[0]!.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the client library ships alone", () => {
  it("loads nothing at runtime but Node built-ins and its own files", () => {
    const files = readdirSync(CLIENT_DIR).filter((name) => name.endsWith(".ts"));
    expect(files).toContain("zi-client.ts");
    const builtins = new Set(builtinModules);
    const offending: string[] = [];
    for (const name of files) {
      for (const specifier of runtimeSpecifiers(join(CLIENT_DIR, name))) {
        const local = /^\.\/[a-z0-9-]+\.js$/.test(specifier);
        const builtin = specifier.startsWith("node:") && builtins.has(specifier.slice(5));
        if (!local && !builtin) offending.push(`${name}: ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("tells erased imports from the ones that load a module", () => {
    const text = [
      'import type { A } from "../erased/a.js";',
      'import { type B } from "../kept/b.js";',
      'import { C } from "../kept/c.js";',
      'export type * from "../erased/d.js";',
      'export { E } from "../kept/e.js";',
      'const f = await import("../kept/f.js");',
    ].join("\n");
    expect(runtimeSpecifiers("probe.ts", text)).toEqual(["../kept/b.js", "../kept/c.js", "../kept/e.js", '"../kept/f.js"']);
  });
});
