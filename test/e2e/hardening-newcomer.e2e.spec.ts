import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { sleep, twoSleepingWorkers, writtenPids } from "../support/tool-processes.js";
import { ZiProcess } from "../support/zi-process.js";

// Issue 16, item 15: the newcomer's findings.
const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  ZiProcess.killAll();
  for (const server of servers.splice(0)) await server.stop();
});

describe("retry classification", () => {
  it("a streamed provider error with HTTP 200 and type server_error is retried (decided by its type, not its text)", async () => {
    const server = new OpenAICompatibleServer();
    servers.push(server);
    const baseUrl = await server.start();
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-stream-error-"));
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl, apiKey: "sk-local-test-key-0123456789", models: [{ id: "m1" }] } } }));
    writeFileSync(join(home, "settings.json"), JSON.stringify({ retry: { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 100 } }));
    // The message says nothing a text pattern would know; only the type says "try again".
    server.enqueue({ type: "stream_error", chunks: ["Hel"], errorType: "server_error", message: "Something went wrong on our side." }, { type: "text", chunks: ["Hello"] });
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--no-session"] });
    await zi.call("m", "model.select", { provider: "local", id: "m1" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "hi", completionId: "c" });
    const idle = await zi.call("w", "session.await_idle", { completionId: "c" });
    expect(zi.events("auto_retry_start")).toEqual([expect.objectContaining({ attempt: 1, errorMessage: expect.stringContaining("Something went wrong") })]);
    expect(idle.result.completion).toMatchObject({ text: "Hello", stopReason: "stop" });
    expect(server.requests).toHaveLength(2);
    await zi.close();
  }, 30_000);

  it("a streamed invalid_request_error is not retried", async () => {
    const server = new OpenAICompatibleServer();
    servers.push(server);
    const baseUrl = await server.start();
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-stream-error-"));
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl, apiKey: "sk-local-test-key-0123456789", models: [{ id: "m1" }] } } }));
    server.enqueue({ type: "stream_error", chunks: [], errorType: "invalid_request_error", message: "Bad request." });
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--no-session"] });
    await zi.call("m", "model.select", { provider: "local", id: "m1" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "hi", completionId: "c" });
    const idle = await zi.call("w", "session.await_idle", { completionId: "c" });
    expect(idle.result.completion.stopReason).toBe("error");
    expect(zi.events("auto_retry_start")).toEqual([]);
    await zi.close();
  }, 30_000);
});

describe("continue with nothing to continue", () => {
  it("is answered operation_failed with the message docs/methods.md documents, and starts nothing", async () => {
    const { readFileSync } = await import("node:fs");
    const zi = new ZiProcess({ fauxScript: { responses: [{ text: "done" }] } });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    const empty = await zi.call("c1", "session.prompt", { delivery: "continue", text: "" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
    await zi.call("w", "session.await_idle", {});
    const afterReply = await zi.call("c2", "session.prompt", { delivery: "continue", text: "" });
    for (const answer of [empty, afterReply]) expect(answer).toMatchObject({ ok: false, error: { code: "operation_failed" } });
    const docs = readFileSync("docs/methods.md", "utf8").replace(/\s+/g, " ");
    expect(docs).toContain(empty.error.message);
    expect(zi.events("agent_start")).toHaveLength(1); // only the direct prompt's run
    await zi.close();
  }, 30_000);
});

describe("session.interrupt during delegate", () => {
  it("the children's end entries come before the interrupt's response, and the delegate result reports each task", async () => {
    const pids = mkdtempSync(join(tmpdir(), "zi-e2e-interrupt-delegate-"));
    const zi = new ZiProcess({ fauxScript: twoSleepingWorkers(pids) });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
    while (writtenPids(pids).length < 2) await sleep(20);
    const response = await zi.call("i", "session.interrupt");
    expect(response.ok).toBe(true);
    const before = zi.frames.slice(0, zi.frames.indexOf(response));
    const ends = before.filter((frame) => frame.type === "session_event" && frame.event.type === "entry_appended" && frame.event.entry.type === "subagent" && frame.event.entry.data.phase === "end");
    expect(ends.map((frame) => frame.event.entry.data.status)).toEqual(["interrupted", "interrupted"]);
    const toolEnd = before.find((frame) => frame.type === "session_event" && frame.event.type === "tool_execution_end" && frame.event.toolName === "delegate");
    expect(toolEnd.event.result.details.tasks).toEqual([
      expect.objectContaining({ index: 0, profile: "worker", status: "interrupted" }),
      expect.objectContaining({ index: 1, profile: "worker", status: "interrupted" }),
    ]);
    expect(toolEnd.event.result.content[0].text).toContain("### Task 1 (worker): interrupted");
    await zi.close();
  }, 30_000);
});
