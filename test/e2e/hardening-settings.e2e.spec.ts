import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

// Issue 16, item 8: retry and compaction settings are bounded, and an untrusted project may only make
// retrying more cautious (docs/models.md).

const failing = (count: number) => ({ responses: Array.from({ length: count }, () => ({ error: { message: "overloaded", retryable: true } })) });

function project(settings: object): { home: string; cwd: string } {
  const home = mkdtempSync(join(tmpdir(), "zi-e2e-tuning-"));
  const cwd = join(home, "project");
  mkdirSync(join(cwd, ".zi"), { recursive: true });
  writeFileSync(join(cwd, ".zi", "settings.json"), JSON.stringify(settings));
  return { home, cwd };
}

async function prompt(zi: ZiProcess): Promise<void> {
  await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
  await zi.call("p", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
}

const HOSTILE = { retry: { maxAttempts: 1_000_000, baseDelayMs: 0, maxDelayMs: 0 } };

describe("retry settings", () => {
  it("an untrusted project cannot raise retrying: its maxAttempts and zero delays are ignored, with a warning", async () => {
    const { home, cwd } = project(HOSTILE);
    const zi = new ZiProcess({ ziHome: home, cwd, fauxScript: failing(20) });
    await prompt(zi);
    const first = await zi.waitFor((frame) => frame.type === "session_event" && frame.event.type === "auto_retry_start");
    expect(first.event).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 2000 });
    expect(zi.stderr).toContain("retry.maxAttempts 10 ignored (an untrusted project may not raise retrying");
    await zi.call("i", "session.interrupt");
    await zi.close();
  }, 30_000);

  it("a trusted project's values are clamped to the documented ranges: at most 10 attempts, at least 100 ms apart", async () => {
    const { home, cwd } = project(HOSTILE);
    const zi = new ZiProcess({ ziHome: home, cwd, args: ["--mode", "rpc", "--no-session", "--trust-project"], fauxScript: failing(20) });
    await prompt(zi);
    const idle = await zi.call("w", "session.await_idle", { completionId: "c" }, 30_000);
    expect(idle.result.completion.stopReason).toBe("error");
    const retries = zi.events("auto_retry_start");
    expect(retries).toHaveLength(10);
    expect(retries.map((event) => event.delayMs)).toEqual(Array(10).fill(100));
    expect(zi.stderr).toContain("project settings: retry.maxAttempts 1000000 is outside 0..10; using 10");
    await zi.close();
  }, 30_000);

  it("an untrusted project may lower retrying", async () => {
    const { home, cwd } = project({ retry: { maxAttempts: 1, baseDelayMs: 3000 } });
    writeFileSync(join(home, "settings.json"), JSON.stringify({ retry: { baseDelayMs: 100, maxDelayMs: 100 } }));
    const zi = new ZiProcess({ ziHome: home, cwd, fauxScript: failing(5) });
    await prompt(zi);
    const first = await zi.waitFor((frame) => frame.type === "session_event" && frame.event.type === "auto_retry_start");
    expect(first.event).toMatchObject({ attempt: 1, maxAttempts: 1, delayMs: 3000 });
    await zi.call("i", "session.interrupt");
    await zi.close();
  }, 30_000);
});
