import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

// Issue 16, item 11: no frame carries half a surrogate pair (strict decoders in Rust or Go reject it).
// JSON.stringify (as Zi writes frames) escapes a surrogate only when it is alone: such an escape is the defect.
const LONE_ESCAPE = /\\ud[89a-f][0-9a-f]{2}/i;
const loneIn = (zi: ZiProcess) => zi.frames.map((frame) => JSON.stringify(frame)).filter((line) => LONE_ESCAPE.test(line));

describe("text is never cut inside a surrogate pair", () => {
  it("faux streams: every delta holds whole characters, and the deltas still rebuild the reply", async () => {
    // A one-character prefix puts every emoji across a 4-unit delta boundary; tokenSize 1 is the smallest step.
    const text = `a${"😀🎉".repeat(40)} done`;
    const thinking = `b${"🧠".repeat(9)}`;
    const zi = new ZiProcess({ fauxScript: { responses: [{ text, thinking }] } });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
    await zi.call("w", "session.await_idle", {});
    const deltas = zi.events("message_update").map((event) => event.assistantMessageEvent);
    expect(deltas.filter((event) => event.type === "text_delta").map((event) => event.delta).join("")).toBe(text);
    expect(deltas.filter((event) => event.type === "thinking_delta").map((event) => event.delta).join("")).toBe(thinking);
    expect(deltas.length).toBeGreaterThan(10);
    expect(loneIn(zi)).toEqual([]);
    await zi.close();
  }, 30_000);

  it("protocol_error details: a long unknown key is cut before the 64th unit, never inside an emoji", async () => {
    const key = `${"k".repeat(63)}${"😀".repeat(10)}`;
    const zi = new ZiProcess();
    zi.send(`{"version":1,"id":"e1","method":"session.get_state","params":${JSON.stringify({ [key]: 1 })}}`);
    zi.send(`{"version":1,"id":"e2","method":"session.get_state","params":{},${JSON.stringify(key)}:1}`);
    const [first, second] = [await zi.waitFor((frame) => frame.id === "e1"), await zi.waitFor((frame) => frame.id === "e2")];
    expect(first.error.details[0].field).toBe(`params.${"k".repeat(63)}…`);
    expect(second.type).toBe("protocol_error");
    expect(loneIn(zi)).toEqual([]);
    await zi.close();
  }, 30_000);

  it("stand-ins: an event too large for its record keeps whole characters in its clipped keys", async () => {
    const extension = join(mkdtempSync(join(tmpdir(), "zi-e2e-standin-")), "big.mjs");
    const key = `${"k".repeat(63)}${"😀".repeat(10)}`;
    writeFileSync(
      extension,
      `export default (zi) => { zi.registerCommand("big", { handler: () => { zi.appendEntry("note", { ${JSON.stringify(key)}: "x".repeat(17 * 1024 * 1024) }); } }); };\n`,
    );
    const zi = new ZiProcess({ args: ["--mode", "rpc", "--no-session", "--extension", extension] });
    expect(await zi.call("c", "command.invoke", { name: "big" })).toMatchObject({ ok: true });
    const standIn = zi.events("entry_appended").find((event) => event.truncated);
    expect(Object.keys(standIn.entry.data)).toEqual(["k".repeat(63)]);
    expect(loneIn(zi)).toEqual([]);
    await zi.close();
  }, 60_000);
});
