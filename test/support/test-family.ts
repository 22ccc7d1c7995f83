import { Optional, RpcError, RpcMethod, anyValue, type MethodFamily, type RequestContext, type RpcHandler } from "../../core/family/family-api.js";
import { IsInt, IsString, Max, Min } from "class-validator";
import { serveFamilies, type ServeOptions, type TestApplication } from "../../core/testing/testing-api.js";
import { connectionFamily } from "../../methods/connection/connection.family.js";

/** Named one-shot signals: `wait` resolves once `fire` was called for the name, before or after. */
class Signals {
  private readonly fired = new Set<string>();
  private readonly waiting = new Map<string, (() => void)[]>();
  fire(key: string): void {
    this.fired.add(key);
    for (const wake of this.waiting.get(key)?.splice(0) ?? []) wake();
  }
  async wait(key: string): Promise<void> {
    if (!this.fired.has(key)) await new Promise<void>((wake) => this.waiting.set(key, [...(this.waiting.get(key) ?? []), wake]));
  }
}

/** Gates that test handlers wait on, opened by the test; `entered` resolves once a handler waits at one. */
export class Gates {
  private readonly gates = new Map<string, { promise: Promise<void>; open: () => void }>();
  private readonly arrivals = new Signals();
  get(key: string): Promise<void> {
    this.arrivals.fire(key);
    return this.entry(key).promise;
  }
  entered(key: string): Promise<void> {
    return this.arrivals.wait(key);
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

@RpcMethod({ params: SizeParams, summary: "test method", result: anyValue() })
export class EchoMethod implements RpcHandler<SizeParams> {
  handle(params: SizeParams) {
    return { bytes: params.bytes, note: params.note ?? null };
  }
}

@RpcMethod({ params: SizeParams, summary: "test method", result: anyValue() })
export class BigMethod implements RpcHandler<SizeParams> {
  handle(params: SizeParams) {
    return { data: "x".repeat(params.bytes) };
  }
}

/** A waiting handler: later requests are admitted while it waits. */
@RpcMethod({ params: KeyParams, concurrent: true, summary: "test method", result: anyValue() })
export class WaitMethod implements RpcHandler<KeyParams> {
  async handle(params: KeyParams, context: RequestContext) {
    await Promise.race([gates.get(params.key), aborted(context.signal)]);
    return { key: params.key };
  }
}

/** An ordered async handler: nothing else is admitted until it answers. */
@RpcMethod({ params: KeyParams, summary: "test method", result: anyValue() })
export class SlowMethod implements RpcHandler<KeyParams> {
  async handle(params: KeyParams) {
    await gates.get(params.key);
    return { key: params.key };
  }
}

@RpcMethod({ params: KeyParams, slot: "interrupt", concurrent: true, summary: "test method", result: anyValue() })
export class StopMethod implements RpcHandler<KeyParams> {
  async handle(params: KeyParams) {
    await gates.get(params.key);
    return {};
  }
}

@RpcMethod({ summary: "test method", result: anyValue() })
export class FailMethod implements RpcHandler {
  handle(): never {
    throw new Error("secret internal detail at /home/user/.zi/auth.json");
  }
}

@RpcMethod({ summary: "test method", result: anyValue() })
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

/** The kernel's test bench: `connection.*` and the `test.*` methods above, served through the real composition. */
export function serveTestFamily(options?: ServeOptions): TestApplication {
  return serveFamilies([connectionFamily, testFamily], options);
}
