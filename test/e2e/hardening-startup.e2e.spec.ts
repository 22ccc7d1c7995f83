import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

// Issue 16, item 12: what a fatal framing error or a signal does to requests held at the startup gate
// (docs/protocol.md, "Startup: what waits for the extensions").
const GATED = resolve("test/fixtures/gated.extension.mjs");

function gatedZi(): ZiProcess {
  const dir = mkdtempSync(join(tmpdir(), "zi-e2e-held-"));
  // The gate file is never created: the extension stays loading for the whole test.
  return new ZiProcess({ ziHome: dir, env: { ZI_TEST_GATE_FILE: join(dir, "never") }, args: ["--mode", "rpc", "--no-session", "--extension", GATED] });
}

describe("requests held at the startup gate", () => {
  it("fatal framing while the extensions load: one fatal protocol_error at once, the held request discarded unanswered, exit 1", async () => {
    const zi = gatedZi();
    expect(await zi.call("s", "session.get_state")).toMatchObject({ ok: true });
    zi.request("c", "command.list"); // held: it waits for the extensions
    zi.request("after", "session.get_state"); // queued behind it
    zi.send(Buffer.from([0xff, 0x0a]));
    expect(await zi.exited).toEqual({ code: 1, signal: null });
    expect(zi.frames.filter((frame) => frame.type === "protocol_error")).toEqual([
      expect.objectContaining({ id: null, fatal: true, error: expect.objectContaining({ code: "invalid_framing" }) }),
    ]);
    expect(zi.frames.filter((frame) => frame.type === "response").map((frame) => frame.id)).toEqual(["s"]);
    zi.assertWellFormed();
  }, 30_000);

  it("SIGTERM while the extensions load: the held request is discarded unanswered, exit 143", async () => {
    const zi = gatedZi();
    expect(await zi.call("s", "session.get_state")).toMatchObject({ ok: true });
    zi.request("c", "command.list");
    zi.child.kill("SIGTERM");
    expect(await zi.exited).toEqual({ code: 143, signal: null });
    expect(zi.frames.filter((frame) => frame.type === "response").map((frame) => frame.id)).toEqual(["s"]);
    zi.assertWellFormed();
  }, 30_000);
});
