import { describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

// What the built `zi` loads before a first response in RPC mode (docs/performance.md, Start-up at the
// floor): the entry, the chunks it imports statically, and the polyfill and session chunks the
// families come from. Read from dist/ as `npm run build` leaves it.
const BIN = "dist/bin";
const GROUP = /^(polyfill|session)-[\w-]{8}\.js$/;

function firstResponseFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (path: string) => {
    if (files.has(path)) return;
    const code = readFileSync(join(BIN, path), "utf8");
    files.set(path, code);
    for (const [, target] of code.matchAll(/^import[^;]*?from '\.\/([^']+)';/gm)) visit(path.startsWith("chunks/") ? `chunks/${target}` : target!);
  };
  visit("zi-cli.js");
  for (const name of readdirSync(join(BIN, "chunks")).filter((name) => GROUP.test(name))) visit(`chunks/${name}`);
  return files;
}

describe("the first response's code, as built", () => {
  const files = firstResponseFiles();

  it("is the entry and the core, polyfill and session chunks", () => {
    expect([...files.keys()].map((path) => path.replace(/-[\w-]{8}\.js$/, "")).sort()).toEqual(["chunks/core", "chunks/polyfill", "chunks/session", "zi-cli.js"]);
  });

  it("imports none of Node's built-ins as an ES module but child_process, whose exports the stdout guard patches", () => {
    const imported = [...files.values()].flatMap((code) => [...code.matchAll(/^import[^;]*from '(node:[^']+)';/gm)].map((match) => match[1]));
    expect(new Set(imported)).toEqual(new Set(["node:child_process"]));
  });

  it("reads node:crypto, node:os and node:fs/promises only on a first call, and never imports the MCP server manager", () => {
    const eager = [...files].flatMap(([path, code]) => [...code.matchAll(/=process\.getBuiltinModule\("node:(?:crypto|os|fs\/promises)"\)|from '\.\/(?:chunks\/)?mcp-server-manager-[^']*'/g)].map((match) => `${path}: ${match[0]}`));
    expect(eager).toEqual([]);
    const code = [...files.values()].join("");
    expect(code).toMatch(/\(\.\.\.args\)=>process\.getBuiltinModule\("node:crypto"\)\.randomUUID\(\.\.\.args\)/);
    expect(code).toMatch(/\(\.\.\.args\)=>process\.getBuiltinModule\("node:fs\/promises"\)\.\w+\(\.\.\.args\)/);
  });

  it("holds no method class: they load with their first request, those without params apart from those with a DTO", () => {
    const session = [...files].find(([path]) => path.startsWith("chunks/session-"))![1];
    expect(session.match(/\b\w+Method=class\b/g)).toEqual(["LazyMethod=class"]);
    const group = (name: string) => readFileSync(join(BIN, "chunks", readdirSync(join(BIN, "chunks")).find((file) => file.startsWith(`${name}-`))!), "utf8");
    expect(group("state").match(/\b\w+Method=class\b/g)).toEqual(["GetStateMethod=class"]);
    expect(group("methods")).toMatch(/\bListCommandsMethod=class\b/);
    expect(group("methods")).not.toMatch(/\b(?:GetState|Prompt)Method=class\b/);
    expect(group("model")).toMatch(/\bSelectModelMethod=class\b/);
    expect(group("params")).not.toMatch(/\bSelectModelMethod=class\b/);
    // A first prompt (session.prompt, then session.await_idle) loads its own two classes, not every DTO.
    expect(group("prompt").match(/\b\w+Method=class\b/g)?.sort()).toEqual(["AwaitIdleMethod=class", "PromptMethod=class"]);
    expect(group("params")).toMatch(/\bSetPolicyMethod=class\b/);
    expect(group("params")).not.toMatch(/\b(?:Prompt|AwaitIdle)Method=class\b/);
  });

  it("has no chunk but a method group import a method group: what the plugins' activation loads before a first prompt's delta brings in no other method's class", () => {
    const METHOD_GROUP = /^(?:state|methods|model|prompt|params)-[\w-]{8}\.js$/;
    const names = readdirSync(join(BIN, "chunks"));
    const importers = names
      .filter((name) => name.endsWith(".js") && !METHOD_GROUP.test(name))
      .flatMap((name) => [...readFileSync(join(BIN, "chunks", name), "utf8").matchAll(/^import[^;]*?from '\.\/([^']+)';/gm)].filter(([, target]) => METHOD_GROUP.test(target!)).map(([, target]) => `${name} -> ${target}`));
    expect(importers).toEqual([]);
  });
});

describe("the first response, run", () => {
  it("loads the entry, the core, polyfill and session chunks and get_state's class alone, not the other method classes", async () => {
    const probe = resolve("test/fixtures/loaded-files-probe.mjs");
    const zi = new ZiProcess({ env: { NODE_OPTIONS: `--import=${probe}` } });
    expect((await zi.call("s", "session.get_state")).ok).toBe(true);
    // The other params-less classes, and a method with params, are imported for their own first request.
    expect((await zi.call("e", "connection.set_events", { mode: "all" })).ok).toBe(true);
    expect((await zi.close()).code).toBe(0);
    const line = /loaded-files: (.*)/.exec(zi.stderr);
    expect(line).not.toBeNull();
    expect(JSON.parse(line![1])).toEqual(["chunks/core", "chunks/polyfill", "chunks/session", "chunks/state", "zi-cli.js", "zi.js"]);
  });
});
