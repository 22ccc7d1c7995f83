import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** What `package.json` promises to dependants, checked against the build. */
describe("package exports", () => {
  it("zi/client loads the typed client, with its declarations", () => {
    const script = `const m = await import("zi/client"); console.log(JSON.stringify({ client: typeof m.ZiClient, error: typeof m.ZiRpcError }));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ client: "function", error: "function" });
    expect(existsSync("dist/client/client-api.d.ts")).toBe(true);
  });

  it("zi/testing loads its seams, with their declarations", () => {
    const script = `const m = await import("zi/testing"); console.log(JSON.stringify({ resolve: typeof m.resolveHandler, context: typeof m.requestContext, serve: typeof m.serveFamilies }));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ resolve: "function", context: "function", serve: "function" });
    expect(existsSync("dist/core/testing/testing-api.d.ts")).toBe(true);
  });

  it("zi/family loads the family author's door, with its declarations", () => {
    const script = `const m = await import("zi/family"); console.log(JSON.stringify([typeof m.RpcMethod, typeof m.inject, typeof m.closed, typeof m.SESSION, typeof m.RpcError]));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(["function", "function", "function", "symbol", "function"]);
    expect(existsSync("dist/core/family/family-api.d.ts")).toBe(true);
  });

  it("every exports target exists in the build", () => {
    const { exports } = JSON.parse(readFileSync("package.json", "utf8")) as { exports: Record<string, string | Record<string, string>> };
    const targets = Object.values(exports).flatMap((entry) => (typeof entry === "string" ? [entry] : Object.values(entry)));
    expect(targets.filter((target) => !existsSync(target))).toEqual([]);
  });

  it("the packed package ships the docs and examples its README links to", () => {
    const run = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    const [{ files }] = JSON.parse(run.stdout) as [{ files: { path: string }[] }];
    const paths = new Set(files.map((file) => file.path));
    const linked = [...readFileSync("README.md", "utf8").matchAll(/\]\(((?:docs|examples)\/[^)#]+)/g)].map((match) => match[1]);
    expect(linked.length).toBeGreaterThan(5);
    expect(linked.filter((path) => !paths.has(path))).toEqual([]);
    for (const doc of readdirSync("docs")) expect(paths).toContain(`docs/${doc}`);
    expect(paths).toContain("examples/rpc/client.ts");
    expect(paths).toContain("dist/core/testing/testing-api.js");
  });

  it("zi/extension resolves, with the extension API declarations", () => {
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", `await import("zi/extension");`], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(existsSync("dist/core/extensions/extension-api.d.ts")).toBe(true);
  });
});
