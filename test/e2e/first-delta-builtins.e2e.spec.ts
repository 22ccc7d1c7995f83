import { afterAll, describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

// The start-up's file calls go through node:fs's callbacks (core/config/async-fs.ts): node:fs/promises,
// which Node 26 does not hold in its startup snapshot, and readline's interface it brings are not
// loaded on the way to a first reply. A preload watches the built zi's stdout writes and, at the first
// `message_update`, records which of Node's modules are loaded, against what Node loads of them to start
// any ES module entry (Node 20's ES module loader reads internal/fs/promises itself). The preload is
// CommonJS and takes Node's modules by process.getBuiltinModule: an ES module, or an `import` of node:fs
// (whose facade reads every getter), would load them itself.
const WATCHED = /fs\/promises|readline/;
const PRELOAD = `
const fs = process.getBuiltinModule("node:fs");
const net = process.getBuiltinModule("node:net");
let recorded = false;
const watch = (data) => {
  if (recorded || !String(data).includes('"type":"message_update"')) return;
  recorded = true;
  fs.writeFileSync(process.env.ZI_TEST_LOADED, process.moduleLoadList.join("\\n"));
};
const socketWrite = net.Socket.prototype.write;
net.Socket.prototype.write = function (data, ...rest) { watch(data); return socketWrite.call(this, data, ...rest); };
for (const name of ["write", "writeSync"]) {
  const original = fs[name];
  fs[name] = function (fd, data, ...rest) { if (fd === 1) watch(data); return original.call(this, fd, data, ...rest); };
}
`;

describe("the built zi's first reply", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("loads neither node:fs/promises nor readline before a faux prompt's first delta", async () => {
    const home = mkdtempSync(join(tmpdir(), "zi-first-delta-"));
    dirs.push(home);
    const preload = join(home, "preload.cjs");
    const loaded = join(home, "loaded.txt");
    writeFileSync(preload, PRELOAD);
    // What Node itself loads of them for an ES module entry, with the same preload.
    const entry = join(home, "entry.mjs");
    writeFileSync(entry, `process.getBuiltinModule("node:fs").writeFileSync(process.env.ZI_TEST_LOADED, process.moduleLoadList.join("\\n"));\n`);
    expect(spawnSync(process.execPath, ["--require", preload, entry], { env: { ...process.env, ZI_TEST_LOADED: loaded } }).status).toBe(0);
    const nodeOwn = new Set(readFileSync(loaded, "utf8").split("\n").filter((name) => WATCHED.test(name)));
    rmSync(loaded);
    // A project with what the start-up reads: context files, a skill, an extensions folder, a profile.
    const project = join(home, "project");
    mkdirSync(join(project, ".zi", "skills", "notes"), { recursive: true });
    mkdirSync(join(project, ".zi", "extensions"), { recursive: true });
    mkdirSync(join(project, ".zi", "agents"), { recursive: true });
    writeFileSync(join(project, "AGENTS.md"), "Be brief.\n");
    writeFileSync(join(project, ".zi", "skills", "notes", "SKILL.md"), "---\nname: notes\ndescription: Takes notes.\n---\nWrite notes.\n");
    const zi = new ZiProcess({ ziHome: home, cwd: project, env: { NODE_OPTIONS: `--require=${preload}`, ZI_TEST_LOADED: loaded } });
    expect((await zi.call("select", "model.select", { provider: "faux", id: "echo" })).ok).toBe(true);
    expect((await zi.call("prompt", "session.prompt", { delivery: "direct", text: "hi", completionId: "c" })).ok).toBe(true);
    expect((await zi.call("idle", "session.await_idle", { completionId: "c" })).ok).toBe(true);
    expect(await zi.close()).toEqual({ code: 0, signal: null });
    const modules = readFileSync(loaded, "utf8").split("\n");
    // The record was taken (the session's own modules are in it), and holds none of them.
    expect(modules).toContain("NativeModule fs");
    expect(modules.filter((name) => WATCHED.test(name) && !nodeOwn.has(name))).toEqual([]);
  });
});
