import { afterEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

// Issue 16, items 2, 6, 7 and 14: profile files are read like config files, `{previous}` is inserted
// verbatim, runtime budgets are bounded, and deep YAML is refused by a bound, not by a stack overflow.

const profile = (front: string, body = "You are a test sub-agent.") => `---\n${front}\n---\n${body}\n`;
const delegate = (args: object) => ({ toolCalls: [{ name: "delegate", arguments: args }] });
const subagentEnds = (zi: ZiProcess) =>
  zi.events("entry_appended").filter((event) => event.entry.type === "subagent" && event.entry.data.phase === "end").map((event) => event.entry.data);

async function run(zi: ZiProcess, text: string): Promise<string> {
  await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
  expect((await zi.call("p", "session.prompt", { delivery: "direct", text, completionId: "c" })).ok).toBe(true);
  return (await zi.call("w", "session.await_idle", { completionId: "c" }, 60_000)).result.completion.text;
}

describe("delegation profiles are read like config files", () => {
  it("a FIFO, /dev/zero and an oversized profile are refused unread; the good profile still runs; SIGTERM ends Zi", async () => {
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-hostile-profiles-"));
    const agents = join(home, "agents");
    mkdirSync(agents);
    execFileSync("mkfifo", [join(agents, "a-fifo.md")]);
    symlinkSync("/dev/zero", join(agents, "b-zero.md"));
    writeFileSync(join(agents, "c-big.md"), profile("name: big\ndescription: too big", "x".repeat(30 * 1024 * 1024)));
    writeFileSync(join(agents, "d-good.md"), profile("name: good\ndescription: fine"));
    const zi = new ZiProcess({ ziHome: home, fauxScript: { responses: [delegate({ profile: "good", task: "hello" }), { text: "done" }] } });
    expect(await run(zi, "go")).toBe("done");
    expect(subagentEnds(zi)).toEqual([expect.objectContaining({ profile: "good", status: "completed", result: "Echo: hello" })]);
    const errors = zi.events("extension_error").map((event) => [event.extension, event.error]);
    expect(errors).toEqual([
      [join(agents, "a-fifo.md"), expect.stringContaining("is a FIFO, not a regular file")],
      [join(agents, "b-zero.md"), expect.stringContaining("is a character device, not a regular file")],
      [join(agents, "c-big.md"), expect.stringContaining(`is larger than ${1024 * 1024} bytes`)],
    ]);
    zi.child.kill("SIGTERM");
    expect(await zi.exited).toEqual({ code: 143, signal: null });
    zi.assertWellFormed();
  }, 60_000);

  it("YAML nested 5,000 deep is refused by the depth bound, not a stack overflow", async () => {
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-deep-profile-"));
    mkdirSync(join(home, "agents"));
    const block = `  ${"- ".repeat(5000)}x`; // block sequences nested on one line
    writeFileSync(join(home, "agents", "block.md"), profile(`name: block\ndescription: deep\ntools:\n${block}`));
    writeFileSync(join(home, "agents", "flow.md"), profile(`name: flow\ndescription: deep\ntools: ${"[".repeat(5000)}${"]".repeat(5000)}`));
    const zi = new ZiProcess({ ziHome: home });
    await zi.call("c", "command.list");
    const errors = zi.events("extension_error");
    expect(errors.map((event) => event.error)).toEqual([
      expect.stringContaining("nests deeper than 64 levels"),
      expect.stringContaining("nests deeper than 64 levels"),
    ]);
    expect(JSON.stringify(errors) + zi.stderr).not.toContain("Maximum call stack");
    await zi.close();
  }, 30_000);
});

describe("delegation budgets and chains", () => {
  it("maxRuntimeSeconds beyond 7 days is refused when the profile is read; 7 days exactly runs normally", async () => {
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-runtime-"));
    mkdirSync(join(home, "agents"));
    // 25 days: past Node's 2^31-1 ms timer limit, which used to fire after a few milliseconds.
    writeFileSync(join(home, "agents", "forever.md"), profile("name: forever\ndescription: d\nmaxRuntimeSeconds: 2160000"));
    writeFileSync(join(home, "agents", "week.md"), profile("name: week\ndescription: d\nmaxRuntimeSeconds: 604800"));
    const zi = new ZiProcess({
      ziHome: home,
      fauxScript: { responses: [delegate({ profile: "week", task: "a" }), { profile: "week", delayMs: 200, text: "week done" }, { text: "ok" }] },
    });
    expect(await run(zi, "go")).toBe("ok");
    expect(zi.events("extension_error")).toEqual([
      { type: "extension_error", extension: join(home, "agents", "forever.md"), error: expect.stringContaining('field "maxRuntimeSeconds": at most 604800') },
    ]);
    expect(subagentEnds(zi)).toEqual([expect.objectContaining({ profile: "week", status: "completed", result: "week done" })]);
    await zi.close();
  }, 30_000);

  it("{previous} inserts the prior result verbatim, replacement patterns ($&, $$, $`, $') included", async () => {
    const tricky = "cost: $$5 $& $` $' $1";
    const zi = new ZiProcess({
      fauxScript: {
        responses: [
          delegate({ chain: [{ profile: "worker", task: "first" }, { profile: "worker", task: "<{previous}>" }] }),
          { profile: "worker", text: tricky },
          { profile: "worker", text: "second" },
          { text: "chained" },
        ],
      },
    });
    expect(await run(zi, "go")).toBe("chained");
    const starts = zi.events("entry_appended").filter((event) => event.entry.type === "subagent" && event.entry.data.phase === "start");
    expect(starts.map((event) => event.entry.data.task)).toEqual(["first", `<${tricky}>`]);
    await zi.close();
  }, 30_000);
});
