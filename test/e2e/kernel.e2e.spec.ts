import { afterEach, describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { ZI_BIN, ZiProcess } from "../support/zi-process.js";
import { SPEC_READY_STATE } from "../support/spec-ready-state.js";

afterEach(() => ZiProcess.killAll());

const MiB = 1024 * 1024;

/** A request line (without LF) of exactly `bytes` bytes, padded inside an unknown params field. */
function paddedRequest(id: string, bytes: number): Buffer {
  const head = `{"version":1,"id":"${id}","method":"session.get_state","params":{"pad":"`;
  const tail = `"}}`;
  return Buffer.from(head + "x".repeat(bytes - head.length - tail.length) + tail);
}

describe("zi --mode rpc as a black box: process and framing", () => {
  it("refuses positional arguments and unknown flags: one stderr line, empty stdout, exit 2", () => {
    for (const args of [["--mode", "rpc", "hello"], ["--mode", "rpc", "--bogus"], []]) {
      const run = spawnSync(process.execPath, [ZI_BIN, ...args], { input: "", env: { ...process.env, ZI_HOME: "/nonexistent-zi-home" } });
      expect(run.status).toBe(2);
      expect(run.stdout.length).toBe(0);
      expect(run.stderr.toString()).toMatch(/^zi: .+\n/);
    }
  });

  it("writes ready first, with the same state session.get_state returns, and exits 0 on stdin close", async () => {
    const zi = new ZiProcess();
    const ready = await zi.waitFor((f) => f.type === "ready");
    expect(ready.sequence).toBe(1);
    expect(ready.limits.maxRecordBytes).toBe(16 * MiB);
    const state = await zi.call("s", "session.get_state");
    expect(state.result).toEqual(ready.state);
    expect(ready.state).toEqual({ sessionId: expect.any(String), ...SPEC_READY_STATE });
    expect(await zi.close()).toEqual({ code: 0, signal: null });
  });

  it("answers 10k pipelined requests in order with a gapless sequence, and delivers every frame before exit", async () => {
    const zi = new ZiProcess();
    const lines = Array.from({ length: 10000 }, (_, i) => JSON.stringify({ version: 1, id: `r${i}`, method: "session.get_state" })).join("\n");
    zi.child.stdin.end(`${lines}\n`);
    const exit = await zi.exited;
    zi.assertWellFormed();
    expect(exit.code).toBe(0);
    const ids = zi.frames.filter((f) => f.type === "response").map((f) => f.id);
    expect(ids).toHaveLength(10000);
    expect(ids[9999]).toBe("r9999");
  });

  it("accepts a record of exactly 16 MiB and is fatal on one byte more", async () => {
    const ok = new ZiProcess();
    ok.send(Buffer.concat([paddedRequest("exact", 16 * MiB), Buffer.from("\n")]));
    const answer = await ok.waitFor((f) => f.id === "exact", 30000);
    expect(answer).toMatchObject({ type: "protocol_error", error: { code: "invalid_request" }, fatal: false });
    expect((await ok.close()).code).toBe(0);

    const tooBig = new ZiProcess();
    tooBig.send(Buffer.concat([paddedRequest("over", 16 * MiB + 1), Buffer.from("\n")]));
    const exit = await tooBig.exited;
    tooBig.assertWellFormed();
    expect(exit.code).toBe(1);
    expect(tooBig.frames.slice(1)).toEqual([
      { version: 1, sequence: 2, type: "protocol_error", id: null, error: { code: "invalid_framing", message: expect.any(String) }, fatal: true },
    ]);
  }, 60000);

  it("is fatal after exactly one frame on invalid UTF-8, exit 1", async () => {
    const zi = new ZiProcess();
    zi.send({ version: 1, id: "a", method: "session.get_state" }, Buffer.from([0x7b, 0xe2, 0x82, 0x0a]), { version: 1, id: "b", method: "session.get_state" });
    const exit = await zi.exited;
    zi.assertWellFormed();
    expect(exit.code).toBe(1);
    expect(zi.frames.map((f) => f.type)).toEqual(["ready", "response", "protocol_error"]);
    expect(zi.frames[2]).toMatchObject({ id: null, fatal: true, error: { code: "invalid_framing" } });
  });

  it("keeps U+2028/U+2029 inside strings and splits a multi-byte character across writes", async () => {
    const zi = new ZiProcess();
    const id = "id\u2028with\u2029separators€";
    const record = Buffer.from(`${JSON.stringify({ version: 1, id, method: "session.get_state" })}\n`);
    const cut = record.indexOf(Buffer.from("€")) + 1;
    zi.send(record.subarray(0, cut));
    await new Promise((resolve) => setTimeout(resolve, 50));
    zi.send(record.subarray(cut));
    const response = await zi.waitFor((f) => f.type === "response");
    expect(response.id).toBe(id);
    await zi.close();
  });

  it("answers null, array, number and string records with parse_error and keeps serving", async () => {
    const zi = new ZiProcess();
    zi.send("null", "[]", "3", '"s"');
    const ok = await zi.call("after", "session.get_state");
    expect(ok.ok).toBe(true);
    expect(zi.frames.slice(1, 5).map((f) => [f.type, f.id, f.error.code, f.fatal])).toEqual(
      Array.from({ length: 4 }, () => ["protocol_error", null, "parse_error", false]),
    );
    await zi.close();
  });

  it.each([
    ["SIGHUP", 129],
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s takes the shutdown path and exits %i", async (signal, code) => {
    const zi = new ZiProcess();
    await zi.call("s", "session.get_state");
    zi.child.kill(signal);
    const exit = await zi.exited;
    zi.assertWellFormed();
    expect(exit).toEqual({ code, signal: null });
  });

  it("routes a stray console.log and process.stdout.write from loaded code to stderr, never stdout", async () => {
    // Preloaded code that prints once Zi is running, as an extension or a dependency might: it prints when
    // the test signals it, after Zi has answered, and then marks stderr so the test knows it has printed.
    const preload =
      "data:text/javascript,process.on('SIGUSR2',()=>{console.log('stray-log');process.stdout.write('stray-write\\n');process.stderr.write('printed\\n')})";
    const zi = new ZiProcess({ env: { NODE_OPTIONS: `--import=${preload}` } });
    await zi.call("s", "session.get_state");
    zi.child.kill("SIGUSR2");
    await zi.waitForStderr("printed");
    await zi.call("t", "session.get_state");
    await zi.close();
    expect(zi.problems).toEqual([]);
    expect(zi.stderr).toContain("stray-log");
    expect(zi.stderr).toContain("stray-write");
  });

  it("reports an unhandled promise rejection on stderr and keeps serving", async () => {
    const preload = "data:text/javascript,process.on('SIGUSR2',()=>{Promise.reject(new%20Error('forgotten-rejection'))})";
    const zi = new ZiProcess({ env: { NODE_OPTIONS: `--import=${preload}` } });
    await zi.call("s", "session.get_state");
    zi.child.kill("SIGUSR2");
    await zi.waitForStderr("forgotten-rejection");
    expect((await zi.call("t", "session.get_state")).ok).toBe(true);
    expect((await zi.close()).code).toBe(0);
  });

  it("writes ready before loading class-validator, DI and the method families, and then serves requests", async () => {
    const probe = resolve("test/fixtures/ready-probe.mjs");
    const zi = new ZiProcess({ env: { NODE_OPTIONS: `--import=${probe}` } });
    expect((await zi.call("s", "session.get_state")).ok).toBe(true);
    await zi.close();
    const line = /ready-probe: (.*)/.exec(zi.stderr);
    expect(line).not.toBeNull();
    expect(JSON.parse(line![1])).toEqual([]);
    // The probe does see them once they are loaded: the first response needed DI (the Reflect polyfill
    // tsyringe runs on), but not class-validator: get_state has no params DTO, and the method classes
    // with theirs load on their own first requests (docs/performance.md).
    const after = /response-probe: (.*)/.exec(zi.stderr);
    expect(JSON.parse(after![1])).toEqual(["reflect-metadata"]);
  });
});
