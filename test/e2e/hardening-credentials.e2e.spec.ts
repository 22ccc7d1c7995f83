import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

// Issue 16, items 5 and 9: credential values Zi knows never reach stderr, frames or journals whole.
const OPENAI_KEY = "sk-test-0123456789abcdefOPENAI";
const HF_KEY = "hf_test_0123456789abcdefHUGGING";

function extension(source: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "zi-e2e-keys-")), "keys.mjs");
  writeFileSync(file, source);
  return file;
}

describe("credentials from the standard variables", () => {
  it("are redacted on stderr from the first extension on, before any model is used", async () => {
    const printer = extension(`export default () => {
  console.error("openai=" + process.env.OPENAI_API_KEY);
  process.stderr.write("hf=" + process.env.HF_TOKEN + "\\n");
  console.log("via stdout " + process.env.OPENAI_API_KEY);
};
`);
    const zi = new ZiProcess({ env: { OPENAI_API_KEY: OPENAI_KEY, HF_TOKEN: HF_KEY }, args: ["--mode", "rpc", "--no-session", "--extension", printer] });
    await zi.call("c", "command.list");
    await zi.waitForStderr("via stdout");
    expect(zi.stderr).toContain("openai=[redacted]");
    expect(zi.stderr).toContain("hf=[redacted]");
    expect(zi.stderr).not.toContain(OPENAI_KEY);
    expect(zi.stderr).not.toContain(HF_KEY);
    await zi.close();
  }, 30_000);
});

describe("credentials in a model's reply and an extension's entries", () => {
  it("never reach a frame or a journal whole: message_end, entries, pages and the file say [redacted]", async () => {
    const recorder = extension(`export default (zi) => {
  zi.registerCommand("record", { handler: () => { zi.appendEntry("note", { text: "key " + process.env.OPENAI_API_KEY }); return { message: "recorded " + process.env.OPENAI_API_KEY }; } });
};
`);
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-keys-home-"));
    const zi = new ZiProcess({
      ziHome: home,
      env: { OPENAI_API_KEY: OPENAI_KEY },
      args: ["--mode", "rpc", "--extension", recorder],
      fauxScript: { responses: [{ text: `Your key is ${OPENAI_KEY}, and "${OPENAI_KEY}" again.` }] },
    });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: `remember ${OPENAI_KEY}` });
    await zi.call("w", "session.await_idle", {});
    expect(await zi.call("r", "command.invoke", { name: "record" })).toMatchObject({ ok: true, result: { message: "recorded [redacted]" } });
    const page = await zi.call("g", "session.get_messages", {});
    const end = zi.events("message_end").at(-1);
    expect(JSON.stringify(end.message.content)).toContain("Your key is [redacted], and \\\"[redacted]\\\" again.");
    expect(JSON.stringify(page.result)).toContain("remember [redacted]");
    const frames = zi.frames.map((frame) => JSON.stringify(frame)).join("\n");
    expect(frames).not.toContain(OPENAI_KEY);
    expect(frames).toContain('"text":"key [redacted]"');
    expect(await zi.close()).toEqual({ code: 0, signal: null });
    const journals = readdirSync(join(home, "sessions")).map((name) => readFileSync(join(home, "sessions", name), "utf8"));
    expect(journals.join("")).not.toContain(OPENAI_KEY);
    expect(journals.join("")).toContain("key [redacted]");
  }, 30_000);
});

// Issue 25: each delta was scrubbed alone, so a key the model streamed in pieces was rebuilt by any
// client joining the deltas. The faux model cuts a reply into 16-32 deltas, so the key spans several.
describe("credentials streamed in pieces", () => {
  it("the joined text deltas of an RPC stream hold no key, and say [redacted] where it was", async () => {
    const reply = `Here: ${OPENAI_KEY}. Again: ${OPENAI_KEY}. And half of it: ${OPENAI_KEY.slice(0, 12)} ends.`;
    const zi = new ZiProcess({ env: { OPENAI_API_KEY: OPENAI_KEY }, args: ["--mode", "rpc", "--no-session"], fauxScript: { responses: [{ text: reply }] } });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "tell me" });
    await zi.call("w", "session.await_idle", {});
    const deltas = zi.events("message_update").filter((event) => event.assistantMessageEvent.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(3);
    const joined = deltas.map((event) => event.assistantMessageEvent.delta as string).join("");
    expect(joined).toBe(`Here: [redacted]. Again: [redacted]. And half of it: ${OPENAI_KEY.slice(0, 12)} ends.`);
    expect(await zi.close()).toEqual({ code: 0, signal: null });
  }, 30_000);
});
