import { describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ACP_MODES } from "../../../core/acp/acp-permission-modes.js";
import { SandboxControl } from "../../../core/sandbox/sandbox-control.js";
import { declarationOf, describeCall } from "../../../core/session/tool-declaration.js";
import type { PermissionAction, PermissionRule } from "../../../core/wire/session-types.js";
import { createCodingTools } from "../../../plugins/coding-tools/coding-tools.factory.js";
import { callUnits } from "../../../plugins/permissions/call-units.js";
import { PermissionPolicy } from "../../../plugins/permissions/permission-policy.js";

/**
 * A project with a git directory, and a ZI_HOME of its own (protected as the session module protects
 * it); with `subdirectory`, the session's cwd is that directory of the repository.
 */
function project(subdirectory?: string) {
  const repository = realpathSync(mkdtempSync(join(tmpdir(), "zi-protected-")));
  mkdirSync(join(repository, ".git", "hooks"), { recursive: true });
  const cwd = subdirectory === undefined ? repository : join(repository, subdirectory);
  mkdirSync(cwd, { recursive: true });
  const ziHome = realpathSync(mkdtempSync(join(tmpdir(), "zi-protected-home-")));
  const sandbox = new SandboxControl({ mode: "off", network: false, writableRoots: [] }, [ziHome]);
  const tools = new Map(createCodingTools({ cwd, logDir: join(ziHome, "logs") }).map((tool) => [tool.name, tool]));
  const verdict = (layer: { default?: PermissionAction; rules: PermissionRule[] }, tool: string, args: Record<string, unknown>): PermissionAction => {
    const policy = new PermissionPolicy();
    policy.setRuntime(layer);
    const declaration = declarationOf(tools.get(tool));
    return policy.evaluate(callUnits(tool, declaration.effect, describeCall(tool, declaration, args, cwd), cwd, (real) => sandbox.protectedPlace(real, cwd))).action;
  };
  return { cwd, ziHome, verdict };
}

/** A real git repository (git init) whose hooks path is set with `git config`, as husky does. */
function hooked(...config: string[][]) {
  const { cwd, ziHome, verdict } = project();
  execFileSync("git", ["init", "-q", cwd]);
  for (const args of config) execFileSync("git", ["-C", cwd, "config", ...args]);
  return { cwd, ziHome, verdict };
}

describe("edits of .git, .zi and ZI_HOME ask unless a path rule names them", () => {
  const acceptEdits = ACP_MODES.get("accept-edits")!.layer;
  const write = (path: string) => ({ path, content: "x" });

  it("ACP's accept-edits: an edit in the project runs, a git hook, the project's settings or ZI_HOME's ask", () => {
    const { ziHome, verdict } = project();
    expect(verdict(acceptEdits, "write", write("src/a.ts"))).toBe("allow");
    expect(verdict(acceptEdits, "write", write(".git/hooks/pre-commit"))).toBe("ask");
    expect(verdict(acceptEdits, "edit", { path: ".git/config", edits: [{ oldText: "a", newText: "b" }] })).toBe("ask");
    expect(verdict(acceptEdits, "write", write(".zi/settings.json"))).toBe("ask");
    expect(verdict(acceptEdits, "write", write(join(ziHome, "settings.json")))).toBe("ask");
    expect(verdict(acceptEdits, "write", write("vendor/lib/.git/hooks/post-checkout"))).toBe("ask");
    expect(verdict(acceptEdits, "write", write("src/.gitignore"))).toBe("allow");
  });

  it("a cwd inside the repository: its .git above the cwd asks too, as ../.git or by its full path", () => {
    const { cwd, verdict } = project("pkg");
    expect(verdict(acceptEdits, "write", write("src/a.ts"))).toBe("allow");
    expect(verdict(acceptEdits, "write", write("../.git/hooks/pre-commit"))).toBe("ask");
    expect(verdict(acceptEdits, "edit", { path: join(cwd, "..", ".git", "config"), edits: [{ oldText: "a", newText: "b" }] })).toBe("ask");
  });

  it("a default allow or a tool rule does not reach them; a path rule does; reading them is not an edit", () => {
    const { verdict } = project();
    expect(verdict({ default: "allow", rules: [{ action: "deny", command: "rm" }] }, "write", write(".git/hooks/pre-commit"))).toBe("ask");
    expect(verdict({ default: "ask", rules: [{ action: "allow", tool: "write" }] }, "write", write(".git/hooks/pre-commit"))).toBe("ask");
    expect(verdict({ default: "ask", rules: [{ action: "allow", path: ".git/**" }] }, "write", write(".git/hooks/pre-commit"))).toBe("allow");
    expect(verdict({ default: "ask", rules: [{ action: "allow", readOnly: true }] }, "read", { path: ".git/config" })).toBe("allow");
  });

  it("only a rule whose literal part names the place allows it: a wildcard that reaches it does not", () => {
    const { cwd, ziHome, verdict } = project();
    const allowing = (path: string) => ({ default: "ask" as const, rules: [{ action: "allow" as const, path }] });
    for (const path of ["**", "*/**", ".g*/**", "**/hooks/*", "**/.git/**", `${cwd}/**`, ".git*/**", "{.git,src}/**"]) {
      expect([path, verdict(allowing(path), "write", write(".git/hooks/pre-commit"))]).toEqual([path, "ask"]);
    }
    expect(verdict(allowing("**"), "write", write("src/a.ts"))).toBe("allow");
    expect(verdict(allowing("**"), "write", write(".zi/settings.json"))).toBe("ask");
    expect(verdict(allowing(`${ziHome.slice(0, ziHome.lastIndexOf("/"))}/**`), "write", write(join(ziHome, "settings.json")))).toBe("ask");
    for (const path of [".git/**", "./.git/hooks/*", ".git/hooks/pre-commit", `${cwd}/.git/**`, "\\.git/**"]) {
      expect([path, verdict(allowing(path), "write", write(".git/hooks/pre-commit"))]).toEqual([path, "allow"]);
    }
    expect(verdict(allowing(`${ziHome}/*`), "write", write(join(ziHome, "settings.json")))).toBe("allow");
    expect(verdict(allowing(".zi/*"), "write", write(".zi/settings.json"))).toBe("allow");
    // A nested repository's .git is named by a rule that spells it out.
    expect(verdict(allowing("vendor/**"), "write", write("vendor/lib/.git/hooks/post-checkout"))).toBe("ask");
    expect(verdict(allowing("vendor/lib/.git/**"), "write", write("vendor/lib/.git/hooks/post-checkout"))).toBe("allow");
  });

  describe("the hooks directory git's core.hooksPath sets, as git itself reads it", () => {
    const allowAll = { default: "allow" as const, rules: [{ action: "deny" as const, command: "rm" }] };

    it("a relative hooks path (.husky) asks like .git; a rule naming it allows; ** does not", () => {
      const { verdict } = hooked(["core.hooksPath", ".husky"]);
      expect(verdict(acceptEdits, "write", write(".husky/pre-commit"))).toBe("ask");
      expect(verdict(allowAll, "edit", { path: ".husky/pre-commit", edits: [{ oldText: "a", newText: "b" }] })).toBe("ask");
      expect(verdict(acceptEdits, "write", write(".huskyish/pre-commit"))).toBe("allow");
      expect(verdict({ default: "ask", rules: [{ action: "allow", path: "**" }] }, "write", write(".husky/pre-commit"))).toBe("ask");
      expect(verdict({ default: "ask", rules: [{ action: "allow", path: ".husky/*" }] }, "write", write(".husky/pre-commit"))).toBe("allow");
    });

    it("from a subdirectory cwd, through an include, as an absolute path outside the repository, husky's .husky/_ layout, a git directory a .git file points to, a nested repository's", () => {
      const shared = realpathSync(mkdtempSync(join(tmpdir(), "zi-shared-hooks-")));
      const included = hooked(["include.path", "hooks.inc"]);
      writeFileSync(join(included.cwd, ".git", "hooks.inc"), "[core]\n\thooksPath = tools/hooks\n");
      expect(included.verdict(allowAll, "write", write("tools/hooks/pre-push"))).toBe("ask");
      expect(included.verdict(allowAll, "write", write("tools/other.sh"))).toBe("allow");
      const absolute = hooked(["core.hooksPath", shared]);
      expect(absolute.verdict(allowAll, "write", write(join(shared, "pre-commit")))).toBe("ask");
      const husky = hooked(["core.hooksPath", ".husky/_"]);
      expect(husky.verdict(allowAll, "write", write(".husky/pre-commit"))).toBe("ask");
      expect(husky.verdict(allowAll, "write", write(".husky/_/h"))).toBe("ask");
      const sub = project("pkg");
      execFileSync("git", ["init", "-q", dirname(sub.cwd)]);
      execFileSync("git", ["-C", dirname(sub.cwd), "config", "core.hooksPath", ".husky"]);
      expect(sub.verdict(allowAll, "write", write("../.husky/pre-commit"))).toBe("ask");
      expect(sub.verdict(allowAll, "write", write("../src/a.ts"))).toBe("allow");
      const separate = project();
      execFileSync("git", ["init", "-q", `--separate-git-dir=${join(separate.cwd, "store")}`, separate.cwd]);
      expect(separate.verdict(allowAll, "write", write("store/config"))).toBe("ask");
      expect(separate.verdict(allowAll, "write", write("store/hooks/pre-commit"))).toBe("ask");
      const nested = hooked();
      mkdirSync(join(nested.cwd, "vendor", "lib"), { recursive: true });
      execFileSync("git", ["init", "-q", join(nested.cwd, "vendor", "lib")]);
      execFileSync("git", ["-C", join(nested.cwd, "vendor", "lib"), "config", "core.hooksPath", "githooks"]);
      expect(nested.verdict(allowAll, "write", write("vendor/lib/githooks/post-checkout"))).toBe("ask");
      expect(nested.verdict(allowAll, "write", write("vendor/lib/src.c"))).toBe("allow");
    });
  });
});
