import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

/** Stays loading until the file named by ZI_TEST_GATE_FILE exists. */
const GATED = resolve("test/fixtures/gated.extension.mjs");

function answered(zi: ZiProcess, id: string): any {
  return zi.frames.find((frame) => (frame.type === "response" || frame.type === "protocol_error") && frame.id === id);
}

describe("zi --mode rpc as a black box: only what needs the extensions waits for them", () => {
  it("answers session.get_state and model.select while an extension loads; command.list, and what follows it, only once it has loaded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zi-e2e-gate-"));
    const gate = join(dir, "release");
    const zi = new ZiProcess({ ziHome: dir, env: { ZI_TEST_GATE_FILE: gate }, args: ["--mode", "rpc", "--no-session", "--extension", GATED] });
    zi.request("s1", "session.get_state");
    zi.request("m", "model.select", { provider: "faux", id: "echo" });
    zi.request("c", "command.list");
    zi.request("s2", "session.get_state");

    // The gate file does not exist yet, so the extension is still loading: these needed none of it.
    expect(await zi.waitFor((frame) => frame.id === "s1")).toMatchObject({ type: "response", ok: true });
    expect(await zi.waitFor((frame) => frame.id === "m")).toMatchObject({ type: "response", ok: true, result: { model: { provider: "faux", id: "echo" } } });
    // command.list holds admission until loading has finished, and s2, written after it, waits with it.
    expect([answered(zi, "c"), answered(zi, "s2")]).toEqual([undefined, undefined]);

    writeFileSync(gate, "");
    const listed = await zi.waitFor((frame) => frame.id === "c");
    expect(listed.result.commands.map((command: { name: string }) => command.name)).toContain("gated");
    const after = await zi.waitFor((frame) => frame.id === "s2");
    expect(after).toMatchObject({ type: "response", ok: true });
    expect(zi.frames.filter((frame) => frame.type === "response").map((frame) => frame.id)).toEqual(["s1", "m", "c", "s2"]);
    expect((await zi.close()).code).toBe(0);
    zi.assertWellFormed();
  });
});
