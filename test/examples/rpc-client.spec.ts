import { afterEach, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { answerPermissions, pageAll, RpcClient, RpcFailure, runRpcCommand } from "../../examples/rpc/client.js";
import { BuiltZi, RECORD_EXTENSION, ZI_BIN } from "../support/built-zi.js";

const started: RpcClient[] = [];
afterEach(() => {
  for (const client of started.splice(0)) client.child.kill("SIGKILL");
  BuiltZi.killAll();
});

async function start(...extraArgs: string[]): Promise<RpcClient> {
  const home = BuiltZi.home();
  const client = await RpcClient.start({
    args: [ZI_BIN, "--mode", "rpc", "--no-session", ...extraArgs],
    cwd: home,
    env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home },
  });
  started.push(client);
  return client;
}

async function failure(promise: Promise<unknown>): Promise<RpcFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof RpcFailure)) throw new Error(`expected an RpcFailure, got ${String(error)}`);
  return error;
}

describe("the copyable client (examples/rpc/client.ts)", () => {
  it("prompts, pages with nextStart, and closes with exit 0", async () => {
    const client = await start();
    const ready = await client.ready;
    expect([ready.sequence, ready.type]).toEqual([1, "ready"]);
    const deltas: string[] = [];
    client.onEvent((event) => event.type === "message_update" && deltas.push(event.assistantMessageEvent.delta));
    await client.request("model.select", { provider: "faux", id: "echo" });
    for (const text of ["one", "two"]) {
      await client.request("session.prompt", { delivery: "direct", text, completionId: text });
      expect((await client.request("session.await_idle", { completionId: text })).completion.text).toBe(`Echo: ${text}`);
    }
    expect(deltas.join("")).toBe("Echo: oneEcho: two");
    const messages = await pageAll(client, "session.get_messages");
    expect(messages.map((message) => message.index)).toEqual([0, 1, 2, 3]);
    expect(await pageAll(client, "session.get_outcomes")).toEqual([]);
    expect(await client.close()).toBe(0);
  });

  it("rejects the request a protocol_error names, and an operation failure with its code", async () => {
    const client = await start();
    const invalid = await failure(client.request("session.get_messages", { limit: 101 }));
    expect([invalid.code, invalid.applied, invalid.details]).toEqual(["invalid_request", "no", [{ field: "params.limit", problem: expect.any(String) }]]);
    const missing = await failure(client.request("model.select", { provider: "nope", id: "x" }));
    expect([missing.code, missing.applied]).toEqual(["not_found", "no"]);
    expect((await client.request("session.get_state")).activity).toEqual({ type: "idle" });
    await client.close();
  });

  it("answerPermissions answers each tool permission request once", async () => {
    const home = BuiltZi.home();
    const script = `${home}/script.json`;
    writeFileSync(script, JSON.stringify({ responses: [{ toolCalls: [{ name: "bash", arguments: { command: "echo asked" } }] }, { text: "done" }] }));
    const client = await RpcClient.start({
      args: [ZI_BIN, "--mode", "rpc", "--no-session", "--faux-script", script],
      cwd: home,
      env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home },
    });
    started.push(client);
    await client.request("model.select", { provider: "faux", id: "scripted" });
    await client.request("permission.set_policy", { default: "ask" });
    const asked: string[] = [];
    const stop = answerPermissions(client, (request) => {
      asked.push(request.summary.command);
      return { decision: "deny", message: "not now" };
    });
    await client.request("session.prompt", { delivery: "direct", text: "go", completionId: "p" });
    const idle = await client.request("session.await_idle", { completionId: "p" });
    stop();
    expect(idle.completion.text).toBe("done");
    expect(asked).toEqual(["echo asked"]);
    const messages = await pageAll(client, "session.get_messages");
    expect(messages.find((message) => message.role === "toolResult")).toMatchObject({ isError: true, content: [{ type: "text", text: "Permission denied by the user: not now" }] });
    await client.close();
  });

  it("runRpcCommand checks command.list and invokes only the exact name", async () => {
    const client = await start("--extension", RECORD_EXTENSION);
    expect(await runRpcCommand(client, "record", "x")).toEqual({ message: "recorded x" });
    const refused = await failure(runRpcCommand(client, "RECORD", "y"));
    expect([refused.code, refused.applied]).toEqual(["not_found", "no"]);
    const outcomes = await pageAll(client, "session.get_outcomes");
    expect(outcomes.map((outcome) => outcome.operationId)).toEqual(["op-x"]);
    await client.close();
  });

  it("runs as a script: streams the reply from faux/echo and prints the completion", async () => {
    const home = BuiltZi.home();
    const child = spawn(process.execPath, ["--disable-warning=DEP0180", "--import", "./scripts/ts-node-esm.mjs", "examples/rpc/client.ts", "hello", "script"], {
      env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home, ZI_ARGS: JSON.stringify([ZI_BIN, "--mode", "rpc", "--no-session"]) },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const [streamed, summary, usage] = stdout.trimEnd().split("\n");
    expect(streamed).toBe("Echo: hello script");
    expect(JSON.parse(summary!)).toEqual({ completion: { text: "Echo: hello script", textTruncated: false, stopReason: "stop" }, messages: 2 });
    expect(JSON.parse(usage!)).toEqual({ usage: { modelCalls: 1, toolCalls: 0, totalTokens: expect.any(Number), cost: 0 } });
  });
});
