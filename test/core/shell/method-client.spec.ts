import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { IsString } from "class-validator";
import { container } from "tsyringe";
import { MethodRegistry } from "../../../core/kernel/method-registry.js";
import type { MethodFamily } from "../../../core/kernel/method-family.js";
import { RpcMethod } from "../../../core/kernel/rpc-method.decorator.js";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import { anyValue } from "../../../core/wire/json-schema.js";
import type { RpcHandler } from "../../../core/kernel/rpc-handler.js";
import { MethodClient } from "../../../core/shell/method-client.js";
import type { AgentSessionEvent } from "../../../core/wire/session-types.js";

const order: string[] = [];
let releaseSlow!: () => void;
const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));

class EchoParams {
  @IsString()
  text!: string;
}

@RpcMethod({ params: EchoParams, summary: "echo", result: anyValue() })
class Echo implements RpcHandler<EchoParams> {
  handle(params: EchoParams) {
    order.push(`echo ${params.text}`);
    return { text: params.text, shared: SHARED };
  }
}

const SHARED = { kept: true };

@RpcMethod({ summary: "ordered and slow", result: anyValue() })
class Slow implements RpcHandler {
  async handle() {
    await slowGate;
    order.push("slow");
    return {};
  }
}

@RpcMethod({ summary: "concurrent", result: anyValue(), concurrent: true })
class Fast implements RpcHandler {
  handle() {
    order.push("fast");
    return {};
  }
}

let waitGate: Promise<void> = Promise.resolve();

@RpcMethod({ summary: "concurrent and waiting", result: anyValue(), concurrent: true })
class Wait implements RpcHandler {
  async handle() {
    await waitGate;
    order.push("waited");
    return {};
  }
}

@RpcMethod({ summary: "throws", result: anyValue() })
class Broken implements RpcHandler {
  handle(): never {
    throw new Error("an internal detail");
  }
}

@RpcMethod({ summary: "gated", result: anyValue(), awaitsStartup: true })
class Gated implements RpcHandler {
  handle() {
    order.push("gated");
    return {};
  }
}

const family: MethodFamily = {
  family: "demo",
  methods: { "demo.echo": Echo, "demo.slow": Slow, "demo.fast": Fast, "demo.broken": Broken, "demo.gated": Gated, "demo.wait": Wait },
};

function client(startup: Promise<void> = Promise.resolve()) {
  const logged: string[] = [];
  const listeners = new Set<(event: AgentSessionEvent) => void | Promise<void>>();
  const events = { subscribe: (listener: (event: AgentSessionEvent) => void | Promise<void>) => (listeners.add(listener), () => void listeners.delete(listener)) };
  const registry = MethodRegistry.build(container.createChildContainer(), [family]);
  return { client: new MethodClient({ registry, startup, events, log: (line) => logged.push(line) }), logged, listeners };
}

describe("MethodClient: the registry RPC serves, called in process", () => {
  it("validates params as the wire does and answers a JSON copy", async () => {
    const { client: methods } = client();
    const result = (await methods.callRaw("demo.echo", { text: "hi" })) as { text: string; shared: object };
    expect(result).toEqual({ text: "hi", shared: { kept: true } });
    expect(result.shared).not.toBe(SHARED);
    await expect(methods.callRaw("demo.echo", { text: 42 })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(methods.callRaw("demo.nope", {})).rejects.toMatchObject({ code: "unknown_method" });
  });

  it("answers an internal fault operation_failed, logged, never its message", async () => {
    const { client: methods, logged } = client();
    const failure = await methods.callRaw("demo.broken", undefined).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure).toMatchObject({ code: "operation_failed", message: "internal error" });
    expect(logged.join("\n")).toContain("an internal detail");
  });

  it("keeps RPC's admission order: an ordered call holds later calls, a concurrent one does not", async () => {
    order.length = 0;
    const { client: methods } = client();
    const slow = methods.callRaw("demo.slow", undefined);
    const echo = methods.callRaw("demo.echo", { text: "after" });
    const fast = methods.callRaw("demo.fast", undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    releaseSlow();
    await Promise.all([slow, echo, fast]);
    expect(order).toEqual(["slow", "echo after", "fast"]);
    // A concurrent call still waiting does not hold the next one.
    order.length = 0;
    let releaseWait!: () => void;
    waitGate = new Promise<void>((resolve) => (releaseWait = resolve));
    const waiting = methods.callRaw("demo.wait", undefined);
    await methods.callRaw("demo.echo", { text: "meanwhile" });
    expect(order).toEqual(["echo meanwhile"]);
    releaseWait();
    await waiting;
    expect(order).toEqual(["echo meanwhile", "waited"]);
  });

  it("holds methods marked awaitsStartup, and what follows them, until startup has finished", async () => {
    order.length = 0;
    let started!: () => void;
    const { client: methods } = client(new Promise<void>((resolve) => (started = resolve)));
    const gated = methods.callRaw("demo.gated", undefined);
    const echo = methods.callRaw("demo.echo", { text: "x" });
    await Promise.resolve();
    expect(order).toEqual([]);
    started();
    await Promise.all([gated, echo]);
    expect(order).toEqual(["gated", "echo x"]);
  });

  it("subscribes to the session's event stream", () => {
    const { client: methods, listeners } = client();
    const seen: string[] = [];
    const unsubscribe = methods.subscribe((event) => void seen.push(event.type));
    for (const listener of listeners) void listener({ type: "agent_start" } as AgentSessionEvent);
    unsubscribe();
    expect(seen).toEqual(["agent_start"]);
    expect(listeners.size).toBe(0);
  });
});
