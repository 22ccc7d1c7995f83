import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

// Issue 16, item 3: the rule for exceptions nobody caught (docs/extensions.md).

function extensionFile(source: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "zi-e2e-uncaught-")), "timers.mjs");
  writeFileSync(file, source);
  return file;
}

const TIMERS = `export default (zi) => {
  // Throws from a timer callback of the extension's own code, then answers a moment later.
  zi.registerCommand("boom", { handler: () => new Promise((resolve) => {
    setTimeout(function explode() { throw new Error("timer boom"); }, 0);
    setTimeout(() => resolve({ message: "still here" }), 50);
  }) });
  // A rejection nobody handles, from the extension's code.
  zi.registerCommand("reject", { handler: () => { (async function rejecter() { throw new Error("lost promise"); })(); return { message: "ok" }; } });
  // Never answers; meanwhile a timer whose callback is not the extension's code (JSON.parse) throws:
  // no stack frame names the extension.
  zi.registerCommand("hang", { handler: () => new Promise(() => { setTimeout(JSON.parse, 20, "{"); }) });
};
`;

describe("an exception nobody caught", () => {
  it("from an extension's timer: reported as its extension_error, in-flight requests answered, Zi keeps serving", async () => {
    const extension = extensionFile(TIMERS);
    const zi = new ZiProcess({ args: ["--mode", "rpc", "--no-session", "--extension", extension] });
    expect(await zi.call("b", "command.invoke", { name: "boom" })).toMatchObject({ ok: true, result: { message: "still here" } });
    expect(zi.events("extension_error")).toEqual([{ type: "extension_error", extension, error: "uncaught exception: timer boom" }]);
    expect(await zi.call("r", "command.invoke", { name: "reject" })).toMatchObject({ ok: true });
    await zi.waitFor((frame) => frame.type === "session_event" && frame.event.type === "extension_error" && frame.event.error.includes("lost promise"));
    expect(zi.events("extension_error")[1]).toEqual({ type: "extension_error", extension, error: "uncaught rejection: lost promise" });
    expect(await zi.call("s", "session.get_state")).toMatchObject({ ok: true });
    expect(zi.stderr).toContain("timer boom");
    expect(await zi.close()).toEqual({ code: 0, signal: null });
  }, 30_000);

  it("that no extension can be named for: logged, then the orderly shutdown answers what is in flight and exits 1", async () => {
    const zi = new ZiProcess({ args: ["--mode", "rpc", "--no-session", "--extension", extensionFile(TIMERS)] });
    zi.request("h", "command.invoke", { name: "hang" });
    expect(await zi.exited).toEqual({ code: 1, signal: null });
    expect(zi.frames.find((frame) => frame.id === "h")).toMatchObject({ type: "response", ok: false, error: { code: "operation_failed" } });
    expect(zi.stderr).toContain("uncaught exception: SyntaxError");
    expect(zi.stderr).toContain("not an extension's: shutting down");
    zi.assertWellFormed();
  }, 30_000);
});
