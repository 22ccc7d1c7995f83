import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryOf } from "../support/tool-processes.js";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const MiB = 1024 * 1024;
/** A PATH with no `rg` on it: Zi falls back to its Node search. */
const NO_RIPGREP = { PATH: tempDir("zi-e2e-no-rg-path-") };


/** Zi with the faux provider scripted to make `calls` one after the other, then say "done". */
async function scripted(cwd: string, calls: { name: string; arguments: object }[], env: Record<string, string> = {}): Promise<ZiProcess> {
  const script = { responses: [...calls.map((call) => ({ toolCalls: [call] })), { text: "done" }] };
  const scriptFile = ZiProcess.fauxScriptFile(tempDir("zi-e2e-search-script-"), script);
  const zi = new ZiProcess({ ziHome: tempDir("zi-e2e-search-home-"), cwd, env, args: ["--mode", "rpc", "--no-session", "--faux-script", scriptFile] });
  await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
  return zi;
}

async function runPrompt(zi: ZiProcess): Promise<any[]> {
  await zi.call("p", "session.prompt", { delivery: "direct", text: "search", completionId: "c" });
  await zi.call("w", "session.await_idle", { completionId: "c" }, 60_000);
  return zi.events("tool_execution_end");
}

const textOf = (end: any): string => end.result.content.map((part: any) => part.text ?? "").join("");

describe.each([
  ["with ripgrep", {}],
  ["without ripgrep", NO_RIPGREP],
])("search cannot be turned against Zi (%s)", (_label, env) => {
  it("grep refuses /dev/urandom and /dev/zero as read does, and Zi does not grow", async () => {
    const zi = await scripted(tmpdir(), [
      { name: "grep", arguments: { pattern: "x", path: "/dev/urandom" } },
      { name: "grep", arguments: { pattern: "x", path: "/dev/zero" } },
      { name: "read", arguments: { path: "/dev/zero" } },
    ], env);
    const before = memoryOf(zi.child.pid!);
    const [urandom, zero, read] = await runPrompt(zi);
    expect([urandom.isError, textOf(urandom)]).toEqual([true, "grep: /dev/urandom is not a regular file."]);
    expect([zero.isError, textOf(zero)]).toEqual([true, "grep: /dev/zero is not a regular file."]);
    expect(read.isError).toBe(true);
    expect(memoryOf(zi.child.pid!).peak).toBeLessThan(before.rss + 50 * MiB);
    expect((await zi.close()).code).toBe(0);
  });

  it("find with a many-star glob over long names answers (a linear-time glob), and so does grep with it", async () => {
    const project = tempDir("zi-e2e-stars-");
    for (let i = 0; i < 50; i++) writeFileSync(join(project, `${"a".repeat(200)}${i}`), "needle\n");
    // With "/" the glob is Zi's alone (ripgrep gets only base-name globs): every listed path meets it.
    const glob = `**/${"*a".repeat(30)}*b`;
    const zi = await scripted(project, [
      { name: "find", arguments: { pattern: glob } },
      { name: "grep", arguments: { pattern: "needle", glob } },
      { name: "find", arguments: { pattern: `**/${"*a".repeat(30)}*9` } },
    ], env);
    const [find, grep, found] = await runPrompt(zi);
    expect(textOf(find)).toBe(`No files found matching "${glob}" in .`);
    expect(textOf(grep)).toBe("No matches found.");
    // Sorted by path: "…a19" before "…a9".
    expect(textOf(found).split("\n")).toEqual(["19", "29", "39", "49", "9"].map((suffix) => `${"a".repeat(200)}${suffix}`));
    expect((await zi.close()).code).toBe(0);
  });
});

describe("without ripgrep, a pattern that backtracks without end cannot freeze Zi", () => {
  function backtrackingProject(): string {
    const project = tempDir("zi-e2e-redos-");
    mkdirSync(join(project, "src"));
    writeFileSync(join(project, "src", "a.txt"), `${"a".repeat(48)}b\n`.repeat(4));
    return project;
  }

  it("grep (a+)+$ ends with an error saying why, Zi answering requests all the while", async () => {
    const zi = await scripted(backtrackingProject(), [{ name: "grep", arguments: { pattern: "(a+)+$" } }], NO_RIPGREP);
    zi.request("p", "session.prompt", { delivery: "direct", text: "search", completionId: "c" });
    await zi.waitFor((frame) => frame.type === "session_event" && frame.event.type === "tool_execution_start");
    // The main thread is free while the pattern runs: a request is answered before the tool ends.
    const state = await zi.call("s", "session.get_state");
    expect(state.ok).toBe(true);
    expect(zi.events("tool_execution_end")).toEqual([]);
    await zi.call("w", "session.await_idle", { completionId: "c" }, 60_000);
    const [grep] = zi.events("tool_execution_end");
    expect(grep.isError).toBe(true);
    expect(textOf(grep)).toMatch(/^grep: the pattern ran for over 3 s on one file without finishing.*install ripgrep\.$/);
    expect((await zi.close()).code).toBe(0);
  });

  it.each([
    ["SIGTERM", 143],
    ["stdin close", 0],
  ])("%s during such a grep ends Zi as documented (exit %s)", async (trigger, code) => {
    const zi = await scripted(backtrackingProject(), [{ name: "grep", arguments: { pattern: "(a+)+$" } }], NO_RIPGREP);
    zi.request("p", "session.prompt", { delivery: "direct", text: "search", completionId: "c" });
    await zi.waitFor((frame) => frame.type === "session_event" && frame.event.type === "tool_execution_start");
    // A request answered while the pattern runs: the main thread is free to see the signal too.
    expect((await zi.call("s", "session.get_state")).ok).toBe(true);
    if (trigger === "SIGTERM") zi.child.kill("SIGTERM");
    else zi.child.stdin.end();
    expect((await zi.exited).code).toBe(code);
    zi.assertWellFormed();
  });
});

describe("ripgrep's output is bounded in bytes", () => {
  it("a 24 MiB line full of matches is shown cut, and Zi does not grow with it", async () => {
    const project = tempDir("zi-e2e-long-line-");
    writeFileSync(join(project, "long.txt"), `${"function ".repeat((24 * MiB) / 9)}\nfunction short\n`);
    const zi = await scripted(project, [{ name: "grep", arguments: { pattern: "function" } }]);
    const before = memoryOf(zi.child.pid!);
    const [grep] = await runPrompt(zi);
    const lines = textOf(grep).split("\n");
    expect(lines).toEqual([`long.txt:1: ${"function ".repeat(55)}funct…`, "long.txt:2: function short"]);
    expect(memoryOf(zi.child.pid!).peak).toBeLessThan(before.rss + 50 * MiB);
    expect((await zi.close()).code).toBe(0);
  });
});
