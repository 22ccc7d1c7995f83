import { clipUtf8 } from "../wire/utf8-clip.js";
import { CONTEXT_LIMITS, type ContextLimits } from "./context-limits.js";
import type { PromptAddition } from "./system-prompt-builder.js";

/** What a system-prompt hook learns about the run it adds to. */
export interface SystemPromptHookContext {
  /** The session's working directory. */
  readonly cwd: string;
  /** The names of the tools the model is offered in this run. */
  readonly tools: readonly string[];
}

/**
 * Called at the start of every run (and by `zi prompt`): return text to append to that run's system
 * prompt, or nothing. Bounded: at most 32 KiB (clipped with a note) and 5 s; a throw, a timeout or a
 * value that is not a string is one stderr line and the run goes on without it.
 */
export type SystemPromptHook = (context: SystemPromptHookContext) => string | undefined | void | Promise<string | undefined | void>;

interface Registered {
  source: string;
  hook: SystemPromptHook;
}

const TIMED_OUT = Symbol("timed out");

/** The extensions' system-prompt hooks, called in registration order for each run. */
export class SystemPromptHooks {
  private readonly hooks: Registered[] = [];

  constructor(
    private readonly log: (line: string) => void,
    private readonly limits: Pick<ContextLimits, "maxHookBytes" | "hookTimeoutMs"> = CONTEXT_LIMITS,
  ) {}

  add(source: string, hook: SystemPromptHook): void {
    this.hooks.push({ source, hook });
  }

  get size(): number {
    return this.hooks.length;
  }

  /** Every hook runs at once; the additions come back in registration order. */
  async collect(context: SystemPromptHookContext): Promise<PromptAddition[]> {
    const results = await Promise.all(this.hooks.map((registered) => this.call(registered, context)));
    return results.filter((addition): addition is PromptAddition => addition !== undefined);
  }

  private async call({ source, hook }: Registered, context: SystemPromptHookContext): Promise<PromptAddition | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.limits.hookTimeoutMs);
      timer.unref();
    });
    let value: unknown;
    try {
      value = await Promise.race([Promise.resolve().then(() => hook(Object.freeze({ ...context }))), timeout]);
    } catch (error) {
      this.log(`zi: extension ${source}: system prompt hook failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
    if (value === TIMED_OUT) {
      this.log(`zi: extension ${source}: system prompt hook did not answer within ${this.limits.hookTimeoutMs} ms; the run goes on without it`);
      return undefined;
    }
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string") {
      this.log(`zi: extension ${source}: system prompt hook returned ${typeof value}, not a string; ignored`);
      return undefined;
    }
    const clipped = clipUtf8(value, this.limits.maxHookBytes);
    const text = clipped.truncated ? `${clipped.text}\n\n[zi: clipped: ${source} added more than ${this.limits.maxHookBytes} bytes]` : clipped.text;
    return { source, text };
  }
}
