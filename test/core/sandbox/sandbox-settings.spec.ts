import { describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { bwrapArguments } from "../../../core/sandbox/bwrap-arguments.js";
import { SandboxControl } from "../../../core/sandbox/sandbox-control.js";
import { sandboxSettings } from "../../../core/sandbox/sandbox-settings.js";

describe("sandbox settings", () => {
  it("defaults to off; the global file, then --sandbox, decide; a trusted project may loosen", () => {
    expect(sandboxSettings(undefined, undefined, false, undefined, "/p").settings).toEqual({ mode: "off", network: false, writableRoots: [] });
    expect(sandboxSettings({ mode: "workspace-write", writableRoots: ["cache"] }, undefined, false, undefined, "/p").settings).toEqual({ mode: "workspace-write", network: false, writableRoots: ["/p/cache"] });
    expect(sandboxSettings({ mode: "workspace-write" }, undefined, false, "read-only", "/p").settings.mode).toBe("read-only");
    expect(sandboxSettings({ mode: "read-only" }, { mode: "off", network: true }, true, undefined, "/p").settings).toMatchObject({ mode: "off", network: true });
  });

  it("an untrusted project may only tighten: a stricter mode and network off count, the rest is ignored with a warning", () => {
    const tighter = sandboxSettings({ mode: "off", network: true }, { mode: "read-only", network: false }, false, undefined, "/p");
    expect(tighter.settings).toMatchObject({ mode: "read-only", network: false });
    expect(tighter.warnings).toEqual([]);
    const looser = sandboxSettings({ mode: "workspace-write" }, { mode: "off", network: true, writableRoots: ["/"] }, false, "read-only", "/p");
    expect(looser.settings).toEqual({ mode: "read-only", network: false, writableRoots: [] });
    expect(looser.warnings).toHaveLength(3);
    expect(sandboxSettings({ mode: "sideways" }, undefined, false, undefined, "/p").warnings).toEqual([expect.stringContaining("sandbox.mode must be")]);
  });

  it("the client's layer replaces the previous one; off wraps nothing; a sandboxed mode wraps in bwrap with every capability dropped", async () => {
    const control = new SandboxControl({ mode: "off", network: false, writableRoots: [] }, [], async () => ({ status: "available", base: "bubblewrap" }));
    const seen: string[] = [];
    control.observe((state) => seen.push(state.mode));
    expect(await control.command(["bash", "-c", "x"], "/p")).toEqual(["bash", "-c", "x"]);
    control.set({ mode: "workspace-write", network: true });
    const argv = await control.command(["bash", "-c", "x"], "/p");
    expect(argv.slice(0, 1)).toEqual(["bwrap"]);
    expect(argv.slice(-4)).toEqual(["--", "bash", "-c", "x"]);
    expect(argv).toEqual(expect.arrayContaining(["--cap-drop", "ALL", "--die-with-parent", "--unshare-pid", "--unshare-user"]));
    expect(argv).not.toContain("--unshare-net");
    control.set({ mode: "read-only" });
    expect(control.state()).toMatchObject({ mode: "read-only", network: false, support: { status: "available" } });
    expect(bwrapArguments(control.state(), { cwd: "/p", protectedPaths: [] })).toContain("--unshare-net");
    expect(seen).toEqual(["off", "workspace-write", "workspace-write", "read-only"]);
  });

  it("a server's own argv brings back its top-level directory under the private /tmp, read-only; a bash command's text never does", async () => {
    // /tmp itself, whatever TMPDIR says: the private /tmp is what hides it.
    const dir = mkdtempSync("/tmp/zi-sbx-argv-");
    mkdirSync(join(dir, "node_modules", "srv"), { recursive: true });
    const script = join(dir, "node_modules", "srv", "index.js");
    writeFileSync(script, "");
    const top = `/tmp/${relative("/tmp", dir).split("/")[0]}`;
    const control = new SandboxControl({ mode: "read-only", network: false, writableRoots: [] }, [], async () => ({ status: "available", base: "bubblewrap" }));
    const server = await control.commandIn("read-only", ["node", script, "/tmp/zi-no-such-dir"], "/p");
    expect(server.join(" ")).toContain(`--tmpfs /tmp --ro-bind ${top} ${top} `);
    expect(server.filter((arg) => arg.startsWith("/tmp/zi-no-such"))).toEqual(["/tmp/zi-no-such-dir"]);
    const bash = await control.command(["bash", "-c", script], "/p");
    expect(bash).not.toContain(top);
  });

  it("where the sandbox cannot start, a sandboxed command throws naming the cause and the fix", async () => {
    const control = new SandboxControl({ mode: "workspace-write", network: false, writableRoots: [] }, [], async () => ({ status: "unavailable", reason: "no userns", fix: "allow them" }));
    await expect(control.command(["bash", "-c", "x"], "/p")).rejects.toThrow('The command did not run: the sandbox (mode "workspace-write") cannot start: no userns. To fix: allow them.');
    expect(control.state().support).toEqual({ status: "unavailable", reason: "no userns", fix: "allow them" });
  });
});
