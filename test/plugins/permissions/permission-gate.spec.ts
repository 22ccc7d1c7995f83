import { afterEach, describe, expect, it } from "@jest/globals";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import type { SessionEventOf } from "../../../core/wire/session-types.js";
import { PermissionController } from "../../../plugins/permissions/permission-controller.js";
import { SessionHarness } from "../../support/session-harness.js";

const ran: string[] = [];
const echo: AgentTool = {
  name: "echo",
  description: "Echoes its text",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
  async execute(args) {
    ran.push(String(args.text));
    return { content: [{ type: "text", text: String(args.text) }] };
  },
};

let harness: SessionHarness;
afterEach(() => {
  harness?.dispose();
  ran.length = 0;
});

async function gated(settings: unknown = { default: "ask" }) {
  harness = await SessionHarness.create({ tools: [echo] });
  const controller = new PermissionController();
  const logs: string[] = [];
  controller.attach(
    { cwd: "/tmp" },
    { session: harness.session, settings: { getGlobal: () => settings, getProject: () => undefined }, project: { trusted: false } },
    (line) => logs.push(line),
  );
  return { controller, session: harness.session, runtime: harness.runtime, logs };
}

const nextRequest = (harness: SessionHarness, nth = 1) =>
  new Promise<SessionEventOf<"permission_requested">>((resolve) => {
    const check = () => harness.ofType("permission_requested")[nth - 1];
    const found = check();
    if (found) return resolve(found);
    const stop = harness.session.subscribe(() => {
      const event = check();
      if (event) {
        stop();
        resolve(event);
      }
    });
  });
const resultText = (harness: SessionHarness) => {
  const end = harness.events.find((e) => e.type === "tool_execution_end") as unknown as { result: { content: { text: string }[] }; isError: boolean };
  return { text: end.result.content[0]!.text, isError: end.isError };
};

describe("the permission gate on a real session", () => {
  it("waits before the call starts, then runs it on allow_once; the state shows the request meanwhile", async () => {
    const { controller, session, runtime } = await gated();
    runtime.respond(runtime.toolCall("echo", { text: "hi" }, "call-1"), runtime.text("done"));
    await session.prompt({ delivery: "direct", text: "go" });
    const request = await nextRequest(harness);
    expect(ran).toEqual([]);
    expect(session.getState().permissionRequests).toEqual([expect.objectContaining({ requestId: request.requestId, toolCallId: "call-1", toolName: "echo" })]);
    controller.resolve(String(request.requestId), "allow_once");
    await harness.idle();
    expect(ran).toEqual(["hi"]);
    expect(session.getState().permissionRequests).toEqual([]);
  });

  it("resolve against interrupt: the interrupt wins, the late resolve finds nothing, nothing runs", async () => {
    const { controller, session, runtime } = await gated();
    runtime.respond(runtime.toolCall("echo", { text: "a" }, "call-1"), runtime.text("never"));
    await session.prompt({ delivery: "direct", text: "go" });
    const request = await nextRequest(harness);
    const interrupted = session.interrupt();
    expect(() => controller.resolve(String(request.requestId), "allow_once")).toThrow(/no pending permission request/);
    await interrupted;
    expect(ran).toEqual([]);
    expect(harness.events.filter((e) => e.type === "permission_resolved")).toEqual([expect.objectContaining({ decision: "deny", decidedBy: "interrupt" })]);
    expect(resultText(harness).isError).toBe(true);
  });

  it("resolve first, interrupt right after: the allowed call never starts once the run is interrupted", async () => {
    const { controller, session, runtime } = await gated();
    runtime.respond(runtime.toolCall("echo", { text: "a" }, "call-1"), runtime.text("never"));
    await session.prompt({ delivery: "direct", text: "go" });
    const request = await nextRequest(harness);
    controller.resolve(String(request.requestId), "allow_once");
    await session.interrupt();
    expect(ran).toEqual([]);
    expect(resultText(harness)).toEqual({ text: "Tool call skipped: the run was interrupted.", isError: true });
  });

  it("two resolves of one id: the second is not_found and changes nothing", async () => {
    const { controller, session, runtime } = await gated();
    runtime.respond(runtime.toolCall("echo", { text: "a" }, "call-1"), runtime.text("done"));
    await session.prompt({ delivery: "direct", text: "go" });
    const request = await nextRequest(harness);
    controller.resolve(String(request.requestId), "deny", "no");
    expect(() => controller.resolve(String(request.requestId), "allow_once")).toThrow(expect.objectContaining({ code: "not_found" }));
    await harness.idle();
    expect(ran).toEqual([]);
    expect(resultText(harness)).toEqual({ text: "Permission denied by the user: no", isError: true });
    expect(harness.events.filter((e) => e.type === "permission_resolved")).toHaveLength(1);
  });

  it("resolve after disconnect: not_found; every later call is denied without a question", async () => {
    const { controller, session, runtime } = await gated();
    runtime.respond(runtime.toolCall("echo", { text: "a" }, "call-1"), runtime.text("done"));
    await session.prompt({ delivery: "direct", text: "go" });
    const request = await nextRequest(harness);
    await session.interrupt("disconnect");
    expect(() => controller.resolve(String(request.requestId), "allow_once")).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(harness.events.filter((e) => e.type === "permission_resolved")).toEqual([expect.objectContaining({ decidedBy: "disconnect" })]);
    runtime.respond(runtime.toolCall("echo", { text: "b" }, "call-2"), runtime.text("done"));
    await session.prompt({ delivery: "direct", text: "again" });
    await harness.idle();
    expect(ran).toEqual([]);
    expect(harness.events.filter((e) => e.type === "permission_requested")).toHaveLength(1);
  });

  it("the wait bound ends in a denial by timeout", async () => {
    const { session, runtime } = await gated({ default: "ask", waitSeconds: 1 });
    runtime.respond(runtime.toolCall("echo", { text: "a" }, "call-1"), runtime.text("done"));
    await session.prompt({ delivery: "direct", text: "go" });
    const request = await nextRequest(harness);
    expect(request.expiresAt).toEqual(expect.any(String));
    await harness.idle();
    expect(harness.events.filter((e) => e.type === "permission_resolved")).toEqual([expect.objectContaining({ decidedBy: "timeout", decision: "deny" })]);
    expect(resultText(harness).text).toBe("Permission denied: nobody answered within 1 s.");
  });

  it("set_policy settles pending requests it now decides (decidedBy rule)", async () => {
    const { controller, session, runtime } = await gated();
    runtime.respond(runtime.toolCall("echo", { text: "a" }, "call-1"), runtime.text("done"));
    await session.prompt({ delivery: "direct", text: "go" });
    await nextRequest(harness);
    const policy = controller.setPolicy({ default: "ask", rules: [{ action: "allow", tool: "ec*" }] });
    expect(policy.rules).toEqual([{ action: "allow", tool: "ec*", source: "runtime" }]);
    await harness.idle();
    expect(ran).toEqual(["a"]);
    expect(harness.events.filter((e) => e.type === "permission_resolved")).toEqual([expect.objectContaining({ decidedBy: "rule", decision: "allow_once" })]);
  });
});

describe("the extension gate before the policy", () => {
  it("rewrites arguments (validated again), denies with a message, or allows without a question", async () => {
    const { session, runtime } = await gated();
    session.addToolCallHook("mutator", (call) => void (call.args.text = "mutated in place"));
    session.addToolCallHook("rewriter", (call) => (call.args.text === "secret" ? { action: "rewrite", args: { text: "[redacted]" } } : undefined));
    session.addToolCallHook("breaker", (call) => (call.args.text === "bad" ? { action: "rewrite", args: {} } : undefined));
    session.addToolCallHook("guard", (call) => (call.args.text === "no" ? { action: "deny", message: "not today" } : { action: "allow" }));
    runtime.respond(
      runtime.toolCall("echo", { text: "secret" }, "c1"),
      runtime.toolCall("echo", { text: "no" }, "c2"),
      runtime.toolCall("echo", { text: "bad" }, "c3"),
      runtime.text("done"),
    );
    await session.prompt({ delivery: "direct", text: "go" });
    await harness.idle();
    expect(ran).toEqual(["[redacted]"]);
    const ends = harness.events.filter((e) => e.type === "tool_execution_end") as unknown as { result: { content: { text: string }[] }; isError: boolean }[];
    expect(ends.map((e) => [e.isError, e.result.content[0]!.text])).toEqual([
      [false, "[redacted]"],
      [true, "not today"],
      [true, expect.stringMatching(/^Extension breaker rewrote the arguments into invalid ones/)],
    ]);
    expect(harness.events.filter((e) => e.type === "permission_requested")).toHaveLength(0);
    const journaled = harness
      .ofType("entry_appended")
      .filter((e) => e.entry.type === "permission")
      .map((e) => (e.entry as unknown as { data: Record<string, unknown> }).data);
    expect(journaled).toEqual([
      expect.objectContaining({ decision: "allow", decidedBy: "extension", extension: "guard", rewrittenBy: ["rewriter"], args: { text: "[redacted]" } }),
      expect.objectContaining({ decision: "deny", decidedBy: "extension", extension: "guard", message: "not today" }),
      expect.objectContaining({ decision: "deny", decidedBy: "extension", extension: "breaker" }),
    ]);
  });

  it("a hook that throws denies (the gate fails closed)", async () => {
    const { session, runtime } = await gated({ default: "allow" });
    session.addToolCallHook("broken", () => {
      throw new Error("boom");
    });
    runtime.respond(runtime.toolCall("echo", { text: "a" }, "c1"), runtime.text("done"));
    await session.prompt({ delivery: "direct", text: "go" });
    await harness.idle();
    expect(ran).toEqual([]);
    expect(resultText(harness)).toEqual({ text: "The tool call was blocked: the gate of extension broken failed.", isError: true });
  });

  it("a policy deny still denies what an extension allowed", async () => {
    const { session, runtime } = await gated({ default: "allow", rules: [{ tool: "echo", action: "deny" }] });
    session.addToolCallHook("eager", () => ({ action: "allow" }));
    runtime.respond(runtime.toolCall("echo", { text: "a" }, "c1"), runtime.text("done"));
    await session.prompt({ delivery: "direct", text: "go" });
    await harness.idle();
    expect(ran).toEqual([]);
    expect(resultText(harness).text).toMatch(/^Permission denied by the deny rule \{"tool":"echo"\} from the global settings\.$/);
  });
});
