import { describe, expect, it } from "@jest/globals";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import type { MethodCalls } from "../../../core/pi-rpc/method-calls.js";
import { EncodedEvent } from "../../../core/pi-rpc/pi-event-mapper.js";
import { PiRpcFrontEnd } from "../../../core/pi-rpc/pi-rpc-front-end.js";
import type { AgentSessionEvent } from "../../../core/wire/session-types.js";

const IDLE_STATE = {
  sessionId: "s1",
  activity: { type: "idle" },
  model: { type: "unselected" },
  thinkingLevel: "off",
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  queuedInputs: { steering: [], followUp: [] },
  messageCount: 0,
  compaction: { type: "idle" },
  retry: { type: "idle" },
  contextUsage: { type: "unavailable", reason: "no_model" },
};

/** Zi's methods, faked: session.prompt emits the run's first events before it answers, as Zi's may. */
function fakeZi(): { methods: MethodCalls; calls: string[] } {
  const calls: string[] = [];
  let listener: ((event: AgentSessionEvent) => void | Promise<void>) | undefined;
  const methods: MethodCalls = {
    has: () => false,
    onEvent: (l) => ((listener = l), () => (listener = undefined)),
    call: async <T>(method: string, params?: Record<string, unknown>): Promise<T> => {
      calls.push(method);
      if (method === "session.get_state") return IDLE_STATE as T;
      if (method === "session.prompt") {
        await listener?.({ type: "agent_start" });
        return { delivery: params?.delivery, admission: "started" } as T;
      }
      if (method === "model.select") throw new RpcError("not_found", "unknown model");
      throw new RpcError("operation_failed", `no ${method} here`);
    },
  };
  return { methods, calls };
}

async function serve(lines: string[]): Promise<{ frames: Record<string, unknown>[]; calls: string[] }> {
  const { methods, calls } = fakeZi();
  const frames: Record<string, unknown>[] = [];
  const front = new PiRpcFrontEnd(methods, async (frame) => void frames.push(frame instanceof EncodedEvent ? JSON.parse(frame.json) : frame), () => undefined, undefined);
  front.attach();
  for (const line of lines) front.line(line);
  await front.settled();
  return { frames, calls };
}

describe("PiRpcFrontEnd", () => {
  it("answers a prompt before the events it causes, and every command in input order", async () => {
    const { frames, calls } = await serve([
      JSON.stringify({ id: "a", type: "prompt", message: "hi" }),
      "{oops",
      JSON.stringify({ id: 2, type: "get_state" }),
      JSON.stringify({ id: "x", type: "nope" }),
      JSON.stringify({ id: "m", type: "set_model", provider: "p", modelId: "q" }),
    ]);
    expect(calls).toEqual(["session.prompt", "session.get_state", "model.select"]);
    expect(frames.map((frame) => [frame.type, frame.command ?? "", frame.id ?? ""])).toEqual([
      ["response", "prompt", "a"],
      ["agent_start", "", ""],
      ["response", "parse", ""],
      ["response", "get_state", 2],
      ["response", "nope", ""],
      ["response", "set_model", "m"],
    ]);
    expect(frames[5]).toEqual({ id: "m", type: "response", command: "set_model", success: false, error: "Model not found: p/q" });
    expect(frames[3]).toMatchObject({ success: true, data: { sessionId: "s1", isStreaming: false, pendingMessageCount: 0 } });
    expect(frames[3]!.data).not.toHaveProperty("model");
  });

  it("an id longer than Zi's 256-byte bound is refused without echoing it", async () => {
    const { frames, calls } = await serve([JSON.stringify({ id: "i".repeat(257), type: "get_state" })]);
    expect(calls).toEqual([]);
    expect(frames).toEqual([{ type: "response", command: "get_state", success: false, error: "id is longer than 256 bytes" }]);
  });
});
