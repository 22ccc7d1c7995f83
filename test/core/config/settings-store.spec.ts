import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { dirname } from "node:path";
import { SettingsStore } from "../../../core/config/settings-store.js";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import { TempZiHome } from "../../support/temp-zi-home.js";

describe("SettingsStore", () => {
  let home: TempZiHome;
  beforeEach(() => {
    home = new TempZiHome();
  });
  afterEach(() => home.cleanup());

  it("treats missing files as empty", () => {
    const store = new SettingsStore(home.paths, home.warn);
    expect(store.get("thinkingLevel")).toBeUndefined();
    expect(store.getThinkingLevel()).toBeUndefined();
    expect(home.warnings).toEqual([]);
  });

  it("lets the project file override the global one key by key", () => {
    home.write(home.paths.globalSettingsFile, { thinkingLevel: "low", defaultModel: { provider: "faux", id: "echo" } });
    home.write(home.paths.projectSettingsFile, { thinkingLevel: "high" });
    const store = new SettingsStore(home.paths, home.warn);
    expect(store.getThinkingLevel()).toBe("high");
    expect(store.getDefaultModel()).toEqual({ provider: "faux", id: "echo" });
  });

  it("reads defaultModel as \"provider/id\" (split at the first slash) or as { provider, id }", () => {
    const defaultModel = (value: unknown) => {
      home.write(home.paths.globalSettingsFile, { defaultModel: value });
      return new SettingsStore(home.paths, home.warn).getDefaultModel();
    };
    expect(defaultModel("faux/echo")).toEqual({ provider: "faux", id: "echo" });
    expect(defaultModel("openrouter/anthropic/claude-sonnet-4")).toEqual({ provider: "openrouter", id: "anthropic/claude-sonnet-4" });
    expect(defaultModel({ provider: "faux", id: "echo" })).toEqual({ provider: "faux", id: "echo" });
    for (const unusable of ["echo", "/echo", "faux/", "", 42, null, { provider: "faux" }]) expect(defaultModel(unusable)).toBeUndefined();
  });

  it("ignores values that are not thinking levels", () => {
    home.write(home.paths.globalSettingsFile, { thinkingLevel: "extreme" });
    expect(new SettingsStore(home.paths, home.warn).getThinkingLevel()).toBeUndefined();
  });

  it("warns once about a malformed file and treats it as empty", () => {
    home.write(home.paths.globalSettingsFile, { thinkingLevel: "low" });
    home.write(home.paths.projectSettingsFile, "{ not json");
    const store = new SettingsStore(home.paths, home.warn);
    expect(store.getThinkingLevel()).toBe("low");
    expect(store.get("other")).toBeUndefined();
    expect(home.warnings).toHaveLength(1);
    expect(home.warnings[0]).toContain("project settings");
    expect(home.warnings[0]).not.toContain("\n");
  });

  it("treats a non-object file as malformed", () => {
    home.write(home.paths.globalSettingsFile, "[1, 2]");
    expect(new SettingsStore(home.paths, home.warn).get("0")).toBeUndefined();
    expect(home.warnings).toHaveLength(1);
  });

  it("writes a scope by merging, creating directories, leaving no temporary file", async () => {
    home.write(home.paths.projectSettingsFile, { keep: 1, thinkingLevel: "low" });
    const store = new SettingsStore(home.paths, home.warn);
    await store.write("project", { thinkingLevel: "medium" });
    await store.write("global", { thinkingLevel: "minimal" });

    expect(JSON.parse(readFileSync(home.paths.projectSettingsFile, "utf8"))).toEqual({ keep: 1, thinkingLevel: "medium" });
    expect(JSON.parse(readFileSync(home.paths.globalSettingsFile, "utf8"))).toEqual({ thinkingLevel: "minimal" });
    expect(store.getThinkingLevel()).toBe("medium");
    expect(new SettingsStore(home.paths, home.warn).getThinkingLevel()).toBe("medium");
    expect(readdirSync(dirname(home.paths.globalSettingsFile))).toEqual(["settings.json"]);
    expect(readdirSync(dirname(home.paths.projectSettingsFile))).toEqual(["settings.json"]);
  });

  it("removes keys patched with undefined and keeps concurrent writes", async () => {
    const store = new SettingsStore(home.paths, home.warn);
    await Promise.all([store.write("global", { a: 1, b: 2 }), store.write("global", { c: 3 }), store.write("global", { b: undefined })]);
    expect(JSON.parse(readFileSync(home.paths.globalSettingsFile, "utf8"))).toEqual({ a: 1, c: 3 });
  });

  it("keeps edits made by someone else since startup", async () => {
    const store = new SettingsStore(home.paths, home.warn);
    expect(store.get("x")).toBeUndefined();
    home.write(home.paths.globalSettingsFile, { editor: "vim" });
    await store.write("global", { thinkingLevel: "high" });
    expect(JSON.parse(readFileSync(home.paths.globalSettingsFile, "utf8"))).toEqual({ editor: "vim", thinkingLevel: "high" });
  });

  it("refuses to overwrite a malformed file", async () => {
    home.write(home.paths.globalSettingsFile, "{ broken");
    const store = new SettingsStore(home.paths, home.warn);
    const failure = await store.write("global", { thinkingLevel: "high" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcError);
    expect((failure as RpcError).code).toBe("operation_failed");
    expect(readFileSync(home.paths.globalSettingsFile, "utf8")).toBe("{ broken");
  });

  it("loads without blocking: a FIFO or a device is one warning and an empty scope, never a read", async () => {
    mkdirSync(dirname(home.paths.globalSettingsFile), { recursive: true });
    execFileSync("mkfifo", [home.paths.globalSettingsFile]);
    mkdirSync(dirname(home.paths.projectSettingsFile), { recursive: true });
    symlinkSync("/dev/zero", home.paths.projectSettingsFile);
    const store = new SettingsStore(home.paths, home.warn);
    await store.load();
    expect(store.get("thinkingLevel")).toBeUndefined();
    // Both files load side by side: their warnings may come in either order.
    expect([...home.warnings].sort()).toEqual([
      `global settings ${home.paths.globalSettingsFile} is a FIFO, not a regular file; ignoring it`,
      `project settings ${home.paths.projectSettingsFile} is a character device, not a regular file; ignoring it`,
    ]);
  });

  it("refuses a settings file over 1 MiB like a malformed one", async () => {
    home.write(home.paths.globalSettingsFile, `{"pad":"${"x".repeat(1024 * 1024)}"}`);
    const store = new SettingsStore(home.paths, home.warn);
    await store.load();
    expect(store.get("pad")).toBeUndefined();
    expect(home.warnings).toEqual([`global settings ${home.paths.globalSettingsFile} is larger than 1048576 bytes; ignoring it`]);
  });

  it("writes private files in private directories it creates (0600 in 0700)", async () => {
    const store = new SettingsStore(home.paths, home.warn);
    await store.write("global", { thinkingLevel: "low" });
    await store.write("project", { thinkingLevel: "high" });
    for (const file of [home.paths.globalSettingsFile, home.paths.projectSettingsFile]) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    }
  });

  it("reads trust-like keys from the global file only", async () => {
    home.write(home.paths.globalSettingsFile, { trustedProjects: ["/a"] });
    home.write(home.paths.projectSettingsFile, { trustedProjects: [home.project] });
    const store = new SettingsStore(home.paths, home.warn);
    await store.load();
    expect(store.get("trustedProjects")).toEqual([home.project]);
    expect(store.getGlobal("trustedProjects")).toEqual(["/a"]);
  });
});
