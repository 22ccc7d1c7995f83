import { describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeRefusal } from "../../../core/sandbox/sandbox-places.js";
import { realPath } from "../../../core/session/tool-path-resolver.js";

/** A project (real path) holding a home of Zi's own, a root added beside it, and a symlink out of it. */
function places() {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "zi-places-cwd-")));
  const added = realpathSync(mkdtempSync(join(tmpdir(), "zi-places-root-")));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), "zi-places-out-")));
  mkdirSync(join(cwd, "home"));
  symlinkSync(outside, join(cwd, "out"));
  return { cwd, added, outside, protectedPaths: [join(cwd, "home")] };
}

describe("writeRefusal: the sandbox's write policy for the tools that write in Zi's process", () => {
  it("off refuses nothing; read-only refuses every write, in the cwd too", () => {
    const { cwd, protectedPaths } = places();
    expect(writeRefusal({ mode: "off", writableRoots: [] }, cwd, protectedPaths, ["/etc/passwd"])).toBeUndefined();
    expect(writeRefusal({ mode: "read-only", writableRoots: [] }, cwd, protectedPaths, [join(cwd, "a.txt")])).toMatch(/read-only mode no tool writes files/);
  });

  it("workspace-write: the cwd and an added root are writable; .git, .zi, a protected path, a symlink's target outside and a sibling directory are not", () => {
    const { cwd, added, outside, protectedPaths } = places();
    const state = { mode: "workspace-write" as const, writableRoots: [added] };
    const refusal = (path: string) => writeRefusal(state, cwd, protectedPaths, [realPath(path)]);
    expect([refusal(join(cwd, "src", "a.ts")), refusal(join(added, "cache")), refusal(join(cwd, ".gitignore"))]).toEqual([undefined, undefined, undefined]);
    expect(refusal(join(cwd, ".git", "hooks", "pre-commit"))).toMatch(/\.git, which stays read-only/);
    expect(refusal(join(added, ".zi", "settings.json"))).toMatch(/\.zi, which stays read-only/);
    expect(refusal(join(cwd, "home", "settings.json"))).toMatch(/home, which stays read-only/);
    expect(refusal(join(cwd, "out", "x"))).toMatch(/is outside the working directory/);
    expect(refusal(`${cwd}-sibling/x`)).toMatch(/is outside the working directory/);
    expect(refusal(outside)).toMatch(/is outside/);
  });

  it("workspace-write: the hooks directory the repository's core.hooksPath sets stays read-only, as git reads it", () => {
    const { cwd, protectedPaths } = places();
    execFileSync("git", ["init", "-q", cwd]);
    execFileSync("git", ["-C", cwd, "config", "core.hooksPath", ".husky"]);
    const refusal = (path: string) => writeRefusal({ mode: "workspace-write", writableRoots: [] }, cwd, protectedPaths, [realPath(path)]);
    expect(refusal(join(cwd, ".husky", "pre-commit"))).toMatch(/\.husky, which stays read-only/);
    expect(refusal(join(cwd, ".husky-notes.md"))).toBeUndefined();
  });

  it("a write whose tool declares no path cannot be fenced, so it is refused", () => {
    const { cwd } = places();
    expect(writeRefusal({ mode: "workspace-write", writableRoots: [] }, cwd, [], [])).toMatch(/does not declare the paths it writes/);
  });
});
