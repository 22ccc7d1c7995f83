import { IsInt, IsString, Max, Min } from "class-validator";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RequestContext, RpcHandler } from "../../core/kernel/rpc-handler.js";
import type { MethodFamily } from "../../core/kernel/method-family.js";
import { Optional } from "../../core/kernel/params-decorators.js";
import { RpcError } from "../../core/kernel/rpc-error.js";

/** Gates that test handlers wait on, opened by the test. */
export class Gates {
  private readonly gates = new Map<string, { promise: Promise<void>; open: () => void }>();
  get(key: string): Promise<void> {
    return this.entry(key).promise;
  }
  open(key: string): void {
    this.entry(key).open();
  }
  private entry(key: string) {
    let gate = this.gates.get(key);
    if (!gate) {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      gate = { promise, open };
      this.gates.set(key, gate);
    }
    return gate;
  }
}
export const gates = new Gates();

export class KeyParams {
  @IsString()
  key!: string;
}

export class SizeParams {
  @IsInt()
  @Min(0)
  @Max(64 * 1024 * 1024)
  bytes!: number;

  @Optional()
  @IsString()
  note?: string;
}

@RpcMethod("test.echo", { params: SizeParams, summary: "test method", result: {} })
export class EchoMethod implements RpcHandler<SizeParams> {
  handle(params: SizeParams) {
    return { bytes: params.bytes, note: params.note ?? null };
  }
}

@RpcMethod("test.big", { params: SizeParams, summary: "test method", result: {} })
export class BigMethod implements RpcHandler<SizeParams> {
  handle(params: SizeParams) {
    return { data: "x".repeat(params.bytes) };
  }
}

/** A waiting handler: later requests are admitted while it waits. */
@RpcMethod("test.wait", { params: KeyParams, waits: true, summary: "test method", result: {} })
export class WaitMethod implements RpcHandler<KeyParams> {
  async handle(params: KeyParams, context: RequestContext) {
    await Promise.race([gates.get(params.key), aborted(context.signal)]);
    return { key: params.key };
  }
}

/** An ordered async handler: nothing else is admitted until it answers. */
@RpcMethod("test.slow", { params: KeyParams, summary: "test method", result: {} })
export class SlowMethod implements RpcHandler<KeyParams> {
  async handle(params: KeyParams) {
    await gates.get(params.key);
    return { key: params.key };
  }
}

@RpcMethod("test.stop", { params: KeyParams, slot: "interrupt", waits: true, summary: "test method", result: {} })
export class StopMethod implements RpcHandler<KeyParams> {
  async handle(params: KeyParams) {
    await gates.get(params.key);
    return {};
  }
}

@RpcMethod("test.fail", { summary: "test method", result: {} })
export class FailMethod implements RpcHandler {
  handle(): never {
    throw new Error("secret internal detail at /home/user/.zi/auth.json");
  }
}

@RpcMethod("test.missing", { summary: "test method", result: {} })
export class MissingMethod implements RpcHandler {
  handle(): never {
    throw new RpcError("not_found", "no such thing");
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new RpcError("operation_failed", "aborted")), { once: true }));
}

export const testFamily = {
  family: "test",
  methods: {
    "test.echo": EchoMethod,
    "test.big": BigMethod,
    "test.wait": WaitMethod,
    "test.slow": SlowMethod,
    "test.stop": StopMethod,
    "test.fail": FailMethod,
    "test.missing": MissingMethod,
  },
} satisfies MethodFamily;
