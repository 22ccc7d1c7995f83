import { describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import ts from "typescript";

/**
 * The import rules of docs/architecture.md, checked on every file (type-only imports included: a type
 * import is still a dependency a newcomer has to follow).
 */
const RULES: { layer: string; mayNotImport: string[]; except?: string[] }[] = [
  // The wire is the bottom: every layer may import it, it imports nothing of Zi's but itself.
  { layer: "core/wire", mayNotImport: ["core/kernel", "core/session", "core/journal", "core/models", "core/config", "core/extensions", "core/ports", "core/boot", "core/family", "core/schema", "core/testing", "methods", "plugins", "client"] },
  // The kernel knows no session types: methods reach the session through ports.
  { layer: "core/kernel", mayNotImport: ["core/session", "core/journal", "core/models", "core/config", "core/extensions", "core/ports", "core/boot", "core/family", "core/schema", "core/testing", "methods", "plugins", "client"] },
  // The process shell sits under every front end and above the kernel: it knows no session, no front end.
  { layer: "core/shell", mayNotImport: ["core/session", "core/journal", "core/models", "core/extensions", "core/boot", "core/acp", "core/json-mode", "core/cli", "core/testing", "methods", "plugins", "client"] },
  // The family door re-exports the kernel's decorators, the ports and the wire: nothing of the domain.
  { layer: "core/family", mayNotImport: ["core/session", "core/journal", "core/models", "core/config", "core/extensions", "core/boot", "core/schema", "core/testing", "methods", "plugins", "client"] },
  // The domain below the session does not reach up into it (settings and paths know no session).
  { layer: "core/config", mayNotImport: ["core/session", "core/journal", "core/models", "core/extensions", "core/boot"] },
  // core/ never reaches up into methods/, plugins/ or the client, except its composition root.
  { layer: "core", mayNotImport: ["methods", "plugins", "client"], except: ["core/boot"] },
  // Methods see the session only through ports, never its classes.
  { layer: "methods", mayNotImport: ["core/session", "core/journal", "core/models", "core/config", "core/boot", "plugins", "client"] },
  { layer: "client", mayNotImport: ["core/session", "core/journal", "core/models", "core/config", "core/boot", "core/extensions"] },
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** Every module a file imports or re-exports, as a repository path. */
function imports(file: string, text = readFileSync(file, "utf8")): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? (node.moduleSpecifier as ts.StringLiteral).text
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]!)
          ? node.arguments[0].text
          : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)
            ? node.argument.literal.text
            : undefined;
    if (specifier?.startsWith(".")) found.push(normalize(join(dirname(file), specifier)));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

describe("layers import only downwards (docs/architecture.md)", () => {
  const all = ["core", "methods", "plugins", "client", "bin"].flatMap((dir) => files(dir)).map((file) => relative(".", file));

  it.each(RULES.map((rule) => [rule.layer, rule] as const))("%s", (_layer, rule) => {
    const checked = all.filter((file) => inside(file, rule.layer) && !(rule.except ?? []).some((dir) => inside(file, dir)));
    expect(checked.length).toBeGreaterThan(0);
    const offending = checked.flatMap((file) =>
      imports(file)
        .filter((target) => rule.mayNotImport.some((dir) => inside(target, dir)))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  // A family imports Zi through one door: methods/, and the method, params and family files of plugins.
  it("family files import Zi's core only through core/family (zi/family)", () => {
    const familyFiles = all.filter((file) => inside(file, "methods") || (inside(file, "plugins") && /\.(method|params|family)\.ts$/.test(file)));
    expect(familyFiles.length).toBeGreaterThan(20);
    const offending = familyFiles.flatMap((file) =>
      imports(file)
        .filter((target) => inside(target, "core") && !inside(target, "core/family"))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  // A plugin uses another plugin only through its public face (plugins/<name>/<name>.public.ts) or a shared
  // module below every plugin (plugins/shared/): never another plugin's internals (plugins/README.md).
  it("plugins import each other only through a public face or plugins/shared", () => {
    const pluginOf = (file: string) => /^plugins\/([^/]+)\//.exec(file)?.[1];
    const pluginFiles = all.filter((file) => pluginOf(file) !== undefined && pluginOf(file) !== "shared");
    expect(pluginFiles.length).toBeGreaterThan(20);
    const offending = pluginFiles.flatMap((file) =>
      imports(file)
        .filter((target) => {
          const owner = pluginOf(target);
          return owner !== undefined && owner !== "shared" && owner !== pluginOf(file) && target !== `plugins/${owner}/${owner}.public.js`;
        })
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
    // plugins/shared is below every plugin: it imports none of them.
    const shared = all.filter((file) => inside(file, "plugins/shared"));
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.flatMap((file) => imports(file).filter((target) => pluginOf(target) !== undefined && pluginOf(target) !== "shared"))).toEqual([]);
  });

  // The client's declarations are published (zi/client): everything they reach, however indirectly, must
  // be Zi's own wire and method types, never the domain behind the extension API (pi-ai, provider and MCP
  // SDK types). test/e2e/client-declarations.e2e.spec.ts compiles them as a dependant does.
  it("the client reaches no domain module, even through methods and plugin families", () => {
    const reached = new Set<string>();
    const pending = files("client").map((file) => relative(".", file));
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      for (const target of imports(file)) pending.push(target.replace(/\.js$/, ".ts"));
    }
    expect([...reached].some((file) => inside(file, "plugins"))).toBe(true);
    const forbidden = ["core/session", "core/journal", "core/models", "core/config", "core/boot", "core/extensions", "bin"];
    expect([...reached].filter((file) => forbidden.some((dir) => inside(file, dir)))).toEqual([]);
  });

  it("catches a forbidden import (the check is not vacuous)", () => {
    const targets = imports("core/kernel/probe.ts", 'import type { X } from "../session/agent-session.js";\nconst y: import("../../methods/x.js").Y = 1;');
    expect(targets).toEqual(["core/session/agent-session.js", "methods/x.js"]);
    expect(targets.every((target) => RULES[1]!.mayNotImport.some((dir) => inside(target, dir)))).toBe(true);
  });
});
