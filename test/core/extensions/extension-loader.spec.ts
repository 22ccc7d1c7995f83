import { describe, expect, it } from "@jest/globals";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { ExtensionDiscovery } from "../../../core/extensions/extension-discovery.js";
import type { ExtensionCandidate } from "../../../core/extensions/extension-types.js";
import { hostFixture, writeTree } from "../../support/extension-fixtures.js";

/** Discovers and loads every extension under `root` the way AgentSessionModule does. */
async function loadFrom(root: string, cliPaths: string[] = [], fixture = hostFixture(), projectTrusted = true) {
  const discovery = new ExtensionDiscovery({ globalDir: join(root, "home/extensions"), projectDir: join(root, "project/.zi/extensions"), cliPaths, cwd: root, projectTrusted, untrustedReason: "not trusted (test)" });
  const candidates = await discovery.find();
  await fixture.host.activateAll(await fixture.host.importAll(candidates));
  return { ...fixture, candidates };
}

const commandExtension = (name: string) => `export default (zi) => zi.registerCommand(${JSON.stringify(name)}, { handler: () => ({ message: "${name} ran" }) });\n`;

describe("extension loading: TypeScript and JavaScript modules", () => {
  it("loads a TypeScript extension with a relative TypeScript import and type-only imports", async () => {
    const root = writeTree({
      "home/extensions/greeter.ts": [
        'import type { ZiExtensionApi, CommandResult } from "../../no/such/module.js";',
        'import { greeting } from "./lib/greeting.js";',
        "export default async function (zi: ZiExtensionApi): Promise<void> {",
        "  await Promise.resolve();",
        '  zi.registerCommand("greet", { description: "Say hello", handler: (args: string): CommandResult => ({ message: greeting(args) }) });',
        "}",
      ].join("\n"),
      "home/extensions/lib/greeting.ts": "export const greeting = (name: string): string => `hello, ${name}`;\n",
    });
    const { host, errors } = await loadFrom(root);
    expect(errors()).toEqual([]);
    expect(host.commands.list()).toEqual([{ name: "greet", description: "Say hello", source: "global" }]);
    const result = await host.commands.get("greet")!.command.handler("Ada", {} as never);
    expect(result).toEqual({ message: "hello, Ada" });
  });

  it("loads ESM .js and .mjs files, CommonJS module.exports, and a directory with an index", async () => {
    const root = writeTree({
      "project/.zi/extensions/a-esm.js": commandExtension("esm-js"),
      "project/.zi/extensions/b-module.mjs": commandExtension("esm-mjs"),
      "project/.zi/extensions/c-common.js": 'module.exports = function (zi) { zi.registerCommand("cjs", { handler() {} }); };\n',
      "project/.zi/extensions/d-dir/index.ts": 'import { name } from "./name.js";\nexport default (zi: any) => zi.registerCommand(name, { handler() {} });\n',
      "project/.zi/extensions/d-dir/name.ts": 'export const name = "from-dir";\n',
    });
    const { host, errors } = await loadFrom(root);
    expect(errors()).toEqual([]);
    expect(host.commands.list().map((c) => [c.name, c.source])).toEqual([
      ["esm-js", "project"],
      ["esm-mjs", "project"],
      ["cjs", "project"],
      ["from-dir", "project"],
    ]);
  });

  it("loads no project extension of an untrusted project: one problem names every skipped one; global and --extension still load", async () => {
    const root = writeTree({
      "home/extensions/g.ts": commandExtension("global"),
      "project/.zi/extensions/a.mjs": commandExtension("project-a"),
      "project/.zi/extensions/b-dir/index.ts": commandExtension("project-b"),
      "cli/c.mjs": commandExtension("cli"),
    });
    const { host, errors, candidates } = await loadFrom(root, ["cli/c.mjs"], hostFixture(), false);
    expect(host.commands.list().map((c) => [c.name, c.source])).toEqual([["global", "global"], ["cli", "cli"]]);
    expect(candidates.filter((c) => c.origin === "project")).toHaveLength(1);
    expect(errors()).toEqual([
      { type: "extension_error", extension: join(root, "project/.zi/extensions"), error: "skipped 2 project extension(s) (a.mjs, b-dir): not trusted (test)" },
    ]);
  });

  it("orders global, project, then --extension paths; skips .d.ts, dot-files, other files and index-less directories; loads a file once", async () => {
    const root = writeTree({
      "home/extensions/z-global.ts": commandExtension("global-z"),
      "home/extensions/a-global.ts": commandExtension("global-a"),
      "home/extensions/types.d.ts": "export type X = number;\n",
      "home/extensions/.hidden.ts": "throw new Error('must not load');\n",
      "home/extensions/README.md": "# notes\n",
      "home/extensions/helpers/util.ts": "throw new Error('must not load');\n",
      "project/.zi/extensions/project.mjs": commandExtension("project"),
      "elsewhere/one.ts": commandExtension("cli-one"),
      "elsewhere/two/index.mjs": commandExtension("cli-two"),
    });
    symlinkSync(join(root, "elsewhere/one.ts"), join(root, "project/.zi/extensions/zz-link.ts"));
    const { host, errors, candidates } = await loadFrom(root, ["elsewhere/one.ts", join(root, "elsewhere/two")]);
    expect(errors()).toEqual([]);
    expect(candidates.map((c: ExtensionCandidate) => c.origin)).toEqual(["global", "global", "project", "project", "cli"]);
    expect(host.commands.list().map((c) => `${c.source}:${c.name}`)).toEqual(["global:global-a", "global:global-z", "project:project", "project:cli-one", "cli:cli-two"]);
  });

  it("is quiet when neither extension directory exists", async () => {
    const { host, errors, lines } = await loadFrom(writeTree({}));
    expect(host.commands.list()).toEqual([]);
    expect(errors()).toEqual([]);
    expect(lines).toEqual([]);
  });
});

describe("extension loading: each failure kind is reported and startup continues", () => {
  it("reports a module that throws at load, a syntax error, a bad default export and a throwing default export", async () => {
    const root = writeTree({
      "home/extensions/1-throws.ts": 'throw new Error("no config file");\n',
      "home/extensions/2-syntax.ts": "export default function (zi {\n",
      "home/extensions/3-no-default.mjs": "export const register = () => {};\n",
      "home/extensions/4-object.js": "export default { name: 'not a function' };\n",
      "home/extensions/5-activation.ts": 'export default (zi: any) => { zi.registerCommand("half", { handler() {} }); throw new Error("missing token"); };\n',
      "home/extensions/6-good.ts": commandExtension("good"),
    });
    const { host, errors, lines } = await loadFrom(root);
    const dir = join(root, "home/extensions");
    expect(errors()).toEqual([
      { type: "extension_error", extension: join(dir, "1-throws.ts"), error: "failed to load: no config file" },
      { type: "extension_error", extension: join(dir, "2-syntax.ts"), error: expect.stringMatching(/^failed to load: .*Unexpected token.*2-syntax\.ts:1:\d+$/) },
      { type: "extension_error", extension: join(dir, "3-no-default.mjs"), error: "the default export must be a function (zi) => void; found no default export" },
      { type: "extension_error", extension: join(dir, "4-object.js"), error: "the default export must be a function (zi) => void; found a default export of type object" },
      { type: "extension_error", extension: join(dir, "5-activation.ts"), error: "threw while loading: missing token" },
    ]);
    // Nothing of a failed extension survives, not even what it registered before it threw.
    expect(host.commands.list().map((c) => c.name)).toEqual(["good"]);
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).toMatch(/^zi: extension \/.* was not loaded: [^\n]+$/);
  });

  it("fails the later extension on a duplicate command or tool name", async () => {
    const tool = (name: string) => `{ name: "${name}", description: "d", parameters: { type: "object" }, execute: async () => ({ content: [] }) }`;
    const root = writeTree({
      "home/extensions/a.ts": `export default (zi: any) => { zi.registerCommand("deploy", { handler() {} }); zi.registerTool(${tool("fetch")}); };\n`,
      "project/.zi/extensions/b.ts": 'export default (zi: any) => zi.registerCommand("deploy", { handler() {} });\n',
      "project/.zi/extensions/c.ts": `export default (zi: any) => { zi.registerCommand("other", { handler() {} }); zi.registerTool(${tool("fetch")}); };\n`,
    });
    const { host, session, errors } = await loadFrom(root);
    expect(errors().map((e) => e.error)).toEqual([
      `duplicate command "deploy": already registered by ${join(root, "home/extensions/a.ts")}`,
      `duplicate tool "fetch": already registered by ${join(root, "home/extensions/a.ts")}`,
    ]);
    expect(host.commands.list().map((c) => c.name)).toEqual(["deploy"]);
    expect([...session.tools.keys()]).toEqual(["fetch"]);
  });

  it("reports a --extension path that does not exist or has no index, and keeps loading the rest", async () => {
    const root = writeTree({ "empty-dir/readme.txt": "", "ok.ts": commandExtension("ok") });
    const { host, errors } = await loadFrom(root, ["missing.ts", "empty-dir", "ok.ts"]);
    expect(errors()).toEqual([
      { type: "extension_error", extension: join(root, "missing.ts"), error: "no such file or directory" },
      { type: "extension_error", extension: join(root, "empty-dir"), error: "the directory has no index.ts, index.mts, index.js, index.mjs" },
    ]);
    expect(host.commands.list()).toEqual([{ name: "ok", source: "cli" }]);
  });
});
