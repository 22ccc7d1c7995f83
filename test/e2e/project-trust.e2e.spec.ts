import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** A project whose `.zi/extensions` would register a command and leave a marker file if it ever ran. */
function projectWithExtensions(): { project: string; marker: string } {
  const project = tempDir("zi-e2e-trust-project-");
  const marker = join(project, "ran.txt");
  mkdirSync(join(project, ".zi", "extensions", "b-dir"), { recursive: true });
  const source = (name: string) =>
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "${name}");\nexport default (zi) => zi.registerCommand("${name}", { handler: () => ({ message: "${name}" }) });\n`;
  writeFileSync(join(project, ".zi", "extensions", "a.mjs"), source("a"));
  writeFileSync(join(project, ".zi", "extensions", "b-dir", "index.mjs"), source("b"));
  return { project, marker };
}

describe("zi as a black box: project-local code runs only in a trusted project", () => {
  it("an untrusted project: nothing of .zi/extensions runs; one stderr line and one extension_error name what was skipped", async () => {
    const { project, marker } = projectWithExtensions();
    const zi = new ZiProcess({ cwd: project });
    expect((await zi.call("l", "command.list")).result.commands).toEqual([]);
    const dir = join(project, ".zi", "extensions");
    const reason = `skipped 2 project extension(s) (a.mjs, b-dir): the project ${project} is not trusted; run with --trust-project, or add it to "trustedProjects" in ZI_HOME/settings.json`;
    expect(zi.events("extension_error")).toEqual([{ type: "extension_error", extension: dir, error: reason }]);
    expect((await zi.close()).code).toBe(0);
    expect(zi.stderr.split("\n").filter((line) => line.includes(".zi"))).toEqual([`zi: extension ${dir} was not loaded: ${reason}`]);
    expect(existsSync(marker)).toBe(false);
  });

  it("a project's own settings.json cannot trust it", async () => {
    const { project } = projectWithExtensions();
    writeFileSync(join(project, ".zi", "settings.json"), JSON.stringify({ trustedProjects: [project] }));
    const zi = new ZiProcess({ cwd: project });
    expect((await zi.call("l", "command.list")).result.commands).toEqual([]);
    expect(zi.events("extension_error")).toHaveLength(1);
    await zi.close();
  });

  it("--trust-project loads them", async () => {
    const { project } = projectWithExtensions();
    const zi = new ZiProcess({ cwd: project, args: ["--mode", "rpc", "--no-session", "--trust-project"] });
    expect((await zi.call("l", "command.list")).result.commands.map((c: any) => [c.name, c.source])).toEqual([["a", "project"], ["b", "project"]]);
    expect(zi.events("extension_error")).toEqual([]);
    await zi.close();
  });

  it("trustedProjects in ZI_HOME/settings.json loads them, without a flag", async () => {
    const { project } = projectWithExtensions();
    const home = tempDir("zi-e2e-trust-home-");
    writeFileSync(join(home, "settings.json"), JSON.stringify({ trustedProjects: ["/somewhere/else", project] }));
    const zi = new ZiProcess({ cwd: project, ziHome: home });
    expect((await zi.call("l", "command.list")).result.commands.map((c: any) => c.name)).toEqual(["a", "b"]);
    await zi.close();
    expect(zi.stderr).not.toContain("not trusted");
  });

  it("an untrusted project without .zi/extensions says nothing", async () => {
    const zi = new ZiProcess({ cwd: tempDir("zi-e2e-trust-empty-") });
    await zi.call("l", "command.list");
    expect(zi.events("extension_error")).toEqual([]);
    await zi.close();
    expect(zi.stderr).toBe("");
  });
});
