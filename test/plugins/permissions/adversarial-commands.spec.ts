import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { declarationOf, describeCall } from "../../../core/session/tool-declaration.js";
import type { PermissionAction, PermissionRule } from "../../../core/wire/session-types.js";
import { createCodingTools } from "../../../plugins/coding-tools/coding-tools.factory.js";
import { callUnits } from "../../../plugins/permissions/call-units.js";
import { summarize } from "../../../plugins/permissions/call-summary.js";
import { PermissionPolicy } from "../../../plugins/permissions/permission-policy.js";
import { BASH_BUILTINS, PLAIN_BUILTINS } from "../../../plugins/permissions/bash-command.js";
import { BUILTIN_ALLOWED, BUILTIN_CRAFTED, BUILTIN_SETUP, CRAFTED, DELETIONS } from "../../support/adversarial-commands.js";

const TOOLS = new Map(createCodingTools({ cwd: tmpdir(), logDir: join(tmpdir(), "zi-adversarial-logs") }).map((tool) => [tool.name, tool]));

function verdict(defaultAction: PermissionAction, rules: PermissionRule[], tool: string, args: Record<string, unknown>, cwd: string): PermissionAction {
  const policy = new PermissionPolicy();
  policy.setSettings(defaultAction, rules.map((rule) => ({ rule, source: "global" as const })), undefined);
  const declaration = declarationOf(TOOLS.get(tool));
  return policy.evaluate(callUnits(tool, declaration.effect, describeCall(tool, declaration, args, cwd), cwd)).action;
}

/** Runs `command` with real bash in a fresh directory holding `victim`; returns the directory's entries after. */
function runInBash(command: string, setup: Record<string, string> = {}): { dir: string; entries: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "zi-adversarial-"));
  writeFileSync(join(dir, "victim"), "v");
  for (const [name, text] of Object.entries(setup)) writeFileSync(join(dir, name), text);
  spawnSync("bash", ["-c", command], { cwd: dir, stdio: "ignore", timeout: 10_000 });
  return { dir, entries: readdirSync(dir).sort() };
}

const ALLOW_LS = [
  { action: "allow" as const, command: "ls" },
  { action: "allow" as const, command: "git status" },
];

describe("command rules fail closed, judged against real bash", () => {
  it("plain commands an allow rule names still run unasked (the rules are not just asking everything)", () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-adversarial-"));
    for (const command of ["ls", "ls -la src", "git status", "git status -s 2>&1", "ls 2>/dev/null | git status"]) {
      expect([command, verdict("ask", ALLOW_LS, "bash", { command }, cwd)]).toEqual([command, "allow"]);
    }
  });

  it.each(CRAFTED)("%j creates %s in real bash, and is never allowed unasked under allow ls / git status", (command, creates) => {
    const ran = runInBash(command);
    // The attack is real: bash runs the hidden part.
    expect(ran.entries).toContain(creates);
    expect(verdict("ask", ALLOW_LS, "bash", { command }, ran.dir)).not.toBe("allow");
  });

  it.each(BUILTIN_CRAFTED)("%j creates %s in real bash, and is never allowed unasked when the builtin is allowed", (command, creates) => {
    const ran = runInBash(command, BUILTIN_SETUP);
    expect(ran.entries).toContain(creates);
    expect(verdict("ask", BUILTIN_ALLOWED.map((allowed) => ({ action: "allow" as const, command: allowed })), "bash", { command }, ran.dir)).not.toBe("allow");
  });

  it("every builtin of the installed bash is known, and the plain ones run no code their words hold", () => {
    const listed = spawnSync("bash", ["-c", "compgen -b"], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
    expect(listed.length).toBeGreaterThan(40);
    expect(listed.filter((name) => !BASH_BUILTINS.has(name))).toEqual([]);
    for (const name of PLAIN_BUILTINS) {
      const forms = [`${name} 'a[$(touch PWNED)]'`, `${name} -v 'a[$(touch PWNED)]' x`, `${name} -v 'a[$(touch PWNED)]' ]`, `echo 1 | ${name} 'a[$(touch PWNED)]'`];
      for (const form of forms) expect([form, runInBash(form).entries]).toEqual([form, ["victim"]]);
      expect(verdict("ask", [{ action: "allow", command: name }], "bash", { command: `${name} x` }, tmpdir())).toBe("allow");
    }
    // test stays plain without a subscript.
    expect(verdict("ask", [{ action: "allow", command: "test" }], "bash", { command: "test -f x" }, tmpdir())).toBe("allow");
  });

  it.each(DELETIONS)("%j deletes the file in real bash, and never gets past deny rm", (command) => {
    const ran = runInBash(command);
    expect(ran.entries).not.toContain("victim");
    expect(verdict("allow", [{ action: "deny", command: "rm" }], "bash", { command }, ran.dir)).not.toBe("allow");
  });

  it("a deny rule stops every deletion it can see, and the rest ask", () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-adversarial-"));
    const verdicts = DELETIONS.map((command) => verdict("allow", [{ action: "deny", command: "rm" }], "bash", { command }, cwd));
    expect(verdicts.filter((one) => one === "deny").length).toBeGreaterThanOrEqual(DELETIONS.length - 3);
    expect(verdict("allow", [{ action: "deny", command: "rm" }], "bash", { command: "ls" }, cwd)).toBe("allow");
  });

  it("write ~/x under deny-outside-cwd is denied: the rules resolve ~ as the tool does (the home directory)", () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-adversarial-"));
    const rules: PermissionRule[] = [{ action: "deny", outsideCwd: true }];
    expect(verdict("allow", rules, "write", { path: "~/x", content: "x" }, cwd)).toBe("deny");
    expect(verdict("allow", rules, "edit", { path: "~/x", oldText: "a", newText: "b" }, cwd)).toBe("deny");
    expect(verdict("allow", rules, "write", { path: "inside.txt", content: "x" }, cwd)).toBe("allow");
    expect(existsSync(join(homedir(), "x"))).toBe(false);
  });

  it("the approval of a replaceAll edit shows every line the edit changes, as the tool then writes them", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-adversarial-"));
    writeFileSync(join(cwd, "f.txt"), "a = 1\nkeep\na = 1\nkeep\na = 1\n");
    const edit = TOOLS.get("edit")!;
    const args = { path: "f.txt", edits: [{ oldText: "a = 1", newText: "a = 2", replaceAll: true }] };
    const declaration = declarationOf(edit);
    const summary = await summarize(declaration, describeCall("edit", declaration, args, cwd), args, cwd);
    const changed = summary.diff!.split("\n").filter((line) => /^[-+]a = /.test(line));
    expect(changed.filter((line) => line === "-a = 1")).toHaveLength(3);
    expect(changed.filter((line) => line === "+a = 2")).toHaveLength(3);
    await edit.execute(args, { signal: new AbortController().signal, cwd, onUpdate() {} });
    expect(readFileSync(join(cwd, "f.txt"), "utf8")).toBe("a = 2\nkeep\na = 2\nkeep\na = 2\n");
  });
});
