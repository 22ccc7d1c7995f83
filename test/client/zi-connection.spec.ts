import { describe, expect, it } from "@jest/globals";
import { ZiConnection } from "../../client/zi-connection.js";
import { ZiRpcError } from "../../client/zi-rpc-error.js";
import { FakeChild } from "../support/fake-child.js";

const READY = { type: "ready", state: {}, limits: {} };

async function connected(): Promise<{ child: FakeChild; connection: ZiConnection }> {
  const child = new FakeChild();
  const connection = new ZiConnection(child.asChild);
  child.emitFrame(READY);
  await connection.ready;
  return { child, connection };
}

const settle = (promise: Promise<unknown>): Promise<{ value?: unknown; error?: ZiRpcError }> =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: error as ZiRpcError }),
  );

describe("ZiConnection framing rules (scripted server)", () => {
  it("correlates responses by id, in whatever order they come", async () => {
    const { child, connection } = await connected();
    const first = connection.request("session.await_idle");
    const second = connection.request("session.get_state");
    await child.waitForSent(2);
    const [a, b] = child.sent;
    expect(a.id).not.toBe(b.id);
    child.emitFrame({ type: "response", id: b.id, method: b.method, ok: true, result: { second: true } });
    child.emitFrame({ type: "response", id: a.id, method: a.method, ok: true, result: { first: true } });
    expect(await first).toEqual({ first: true });
    expect(await second).toEqual({ second: true });
  });

  it("treats a sequence gap as a lost frame: pending requests fail and Zi is stopped", async () => {
    const { child, connection } = await connected();
    const pending = settle(connection.request("session.get_state"));
    await child.waitForSent(1);
    child.emitFrame({ type: "session_event", event: { type: "agent_start" } }, 5);
    const { error } = await pending;
    expect([error?.code, error?.applied]).toEqual(["protocol_violation", "unknown"]);
    expect(child.killedWith).toBe("SIGTERM");
    const later = await settle(connection.request("session.get_state"));
    expect(later.error?.code).toBe("protocol_violation");
  });

  it("treats a stdout line that is not JSON as a violation", async () => {
    const { child, connection } = await connected();
    const pending = settle(connection.request("session.get_state"));
    child.emitRaw("npm banner\n");
    expect((await pending).error?.message).toContain("not JSON");
  });

  it("routes a protocol_error to the request it names before matching responses, and reports unattributed ones", async () => {
    const child = new FakeChild();
    const unattributed: unknown[] = [];
    const connection = new ZiConnection(child.asChild, { onUnattributedError: (frame) => unattributed.push(frame.error.code) });
    child.emitFrame(READY);
    await connection.ready;
    const rejected = settle(connection.request("session.prompt", { delivery: "x" }));
    const other = connection.request("session.get_state");
    await child.waitForSent(2);
    const details = [{ field: "params.delivery", problem: "bad" }];
    child.emitFrame({ type: "protocol_error", id: child.sent[0].id, error: { code: "invalid_request", message: "invalid params", details }, fatal: false });
    child.emitFrame({ type: "protocol_error", id: null, error: { code: "parse_error", message: "not JSON" }, fatal: false });
    child.emitFrame({ type: "response", id: child.sent[1].id, method: "session.get_state", ok: true, result: {} });
    const { error } = await rejected;
    expect(error).toBeInstanceOf(ZiRpcError);
    expect([error?.code, error?.applied, error?.source, error?.method, error?.fields]).toEqual(["invalid_request", "no", "protocol_error", "session.prompt", ["params.delivery"]]);
    expect(await other).toEqual({});
    expect(unattributed).toEqual(["parse_error"]);
  });

  it("rejects the ready promise with Zi's stderr when it exits before ready", async () => {
    const child = new FakeChild();
    const connection = new ZiConnection(child.asChild);
    child.stderr.write("zi: cannot start: boom\n");
    await new Promise((resolve) => setImmediate(resolve));
    child.exit(1);
    await expect(connection.ready).rejects.toMatchObject({ code: "connection_closed", message: expect.stringContaining("boom") });
  });

  it("joins a record split across many chunks", async () => {
    const { child, connection } = await connected();
    const pending = connection.request("session.get_state");
    await child.waitForSent(1);
    const text = JSON.stringify({ version: 1, sequence: 2, type: "response", id: child.sent[0].id, method: "m", ok: true, result: { big: "é".repeat(50_000) } });
    const bytes = Buffer.from(`${text}\n`);
    for (let at = 0; at < bytes.length; at += 1000) child.stdout.write(bytes.subarray(at, at + 1000));
    expect(((await pending) as { big: string }).big).toHaveLength(50_000);
  });
});
