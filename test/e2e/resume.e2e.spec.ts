import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const SCRIPT = { responses: [{ text: "one" }, { text: "two" }] };

/** Runs one session that selects faux/scripted and thinking `high`, and returns its ZI_HOME and journal. */
async function recordedSession(): Promise<{ home: string; file: string }> {
  const home = mkdtempSync(join(tmpdir(), "zi-e2e-resume-"));
  const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc"], fauxScript: SCRIPT });
  await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
  await zi.call("t", "thinking.select", { level: "high" });
  await zi.call("p", "session.prompt", { delivery: "direct", text: "first" });
  await zi.call("w", "session.await_idle");
  expect((await zi.close()).code).toBe(0);
  const [name] = readdirSync(join(home, "sessions")).filter((entry) => entry.endsWith(".jsonl"));
  return { home, file: join(home, "sessions", name) };
}

describe("zi as a black box: resume with --session FILE", () => {
  it("states the recorded model and thinking level in ready, and runs a prompt with them", async () => {
    const { home, file } = await recordedSession();
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--session", file], fauxScript: SCRIPT });
    const ready = await zi.waitFor((f) => f.type === "ready");
    expect(ready.state.model).toMatchObject({ type: "selected", provider: "faux", id: "scripted" });
    expect(ready.state.thinkingLevel).toBe("high");
    expect(ready.state.supportedThinkingLevels).toEqual(["off", "minimal", "low", "medium", "high"]);
    expect(await zi.call("s", "session.get_state")).toMatchObject({ result: { model: { provider: "faux", id: "scripted" }, thinkingLevel: "high" } });
    expect((await zi.call("p", "session.prompt", { delivery: "direct", text: "again", completionId: "c" })).result).toMatchObject({ admission: "started" });
    expect((await zi.call("w", "session.await_idle", { completionId: "c" })).result.completion.text).toBe("one");
    expect((await zi.close()).code).toBe(0);
  });

  it("with the recorded model gone: ready says unselected and a prompt is refused before admission, as in a fresh session", async () => {
    const { home, file } = await recordedSession();
    const before = readFileSync(file, "utf8");
    // Without --faux-script there is no faux/scripted model to restore.
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--session", file] });
    const ready = await zi.waitFor((f) => f.type === "ready");
    expect(ready.state.model).toEqual({ type: "unselected" });
    expect(ready.state.thinkingLevel).toBe("off");
    expect(ready.state.messageCount).toBe(2);
    const refused = await zi.call("p", "session.prompt", { delivery: "direct", text: "lost" });
    expect(zi.events("entry_appended")).toEqual([]);
    expect((await zi.close()).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(zi.stderr).toMatch(/cannot restore the session's model faux\/scripted \(.*\); no model is selected/);

    const fresh = new ZiProcess();
    const freshRefusal = await fresh.call("p", "session.prompt", { delivery: "direct", text: "lost" });
    await fresh.close();
    expect(refused).toMatchObject({ ok: false, error: { code: "operation_failed" } });
    expect({ ...refused, sequence: 0 }).toEqual({ ...freshRefusal, sequence: 0 });
  });
});
