import type * as PiAi from "@mariozechner/pi-ai";
import type { FauxStep } from "./model-config-types.js";
import type { PiAiLight } from "./pi-ai-loader.js";

/** Marks a scripted error as retryable in a way that survives cloning and JSON round trips. */
export const FAUX_ERROR_DIAGNOSTIC = "zi_faux_error";

export interface FauxPacing {
  /** Characters per delta are 4 × tokenSize (pi-ai's faux token estimate). */
  tokenSize: number;
  /** Undefined streams as fast as the consumer accepts. */
  tokensPerSecond?: number;
}

export interface FauxResponse {
  message: PiAi.AssistantMessage;
  pacing: FauxPacing;
  delayMs: number;
}

// Aim for about 16-32 deltas per block whatever its length: several deltas even for a short
// echo, yet few events for a multi-megabyte one (echo is the throughput benchmark's model).
const TARGET_DELTAS = 16;

/** Builds the replies of the offline `faux` models. */
const UNPACED_TOKENS_PER_SECOND = 1000;

export class FauxResponder {
  constructor(private readonly piAi: PiAiLight) {}

  echo(context: PiAi.Context): FauxResponse {
    const text = this.echoText(context);
    return { message: this.piAi.fauxAssistantMessage(text), pacing: { tokenSize: this.tokenSizeFor(text.length) }, delayMs: 0 };
  }

  step(step: FauxStep, context: PiAi.Context): FauxResponse {
    const content: PiAi.FauxContentBlock[] = [];
    if (step.thinking !== undefined) content.push(this.piAi.fauxThinking(step.thinking));
    if (step.text !== undefined) content.push(this.piAi.fauxText(step.text));
    for (const call of step.toolCalls ?? []) {
      content.push(this.piAi.fauxToolCall(call.name, structuredClone(call.arguments), call.id ? { id: call.id } : {}));
    }
    // A step that only paces (e.g. `{ "delayMs": 5000 }`) still answers something visible.
    if (content.length === 0 && !step.error) content.push(this.piAi.fauxText(this.echoText(context)));

    const stopReason = step.error ? "error" : step.toolCalls?.length ? "toolUse" : "stop";
    const message = this.piAi.fauxAssistantMessage(content, { stopReason, errorMessage: step.error?.message });
    if (step.error) {
      message.diagnostics = [{ type: FAUX_ERROR_DIAGNOSTIC, timestamp: Date.now(), details: { retryable: step.error.retryable } }];
    }
    const longest = Math.max(0, ...content.map((block) => this.blockLength(block)));
    // Pacing sleeps once per delta, and a timer cannot sleep less than ~1 ms: from 1,000 tokens per
    // second on, one-token deltas are streamed unpaced, as fast as the consumer accepts them.
    const pacing: FauxPacing = step.tokensPerSecond
      ? { tokenSize: 1, tokensPerSecond: step.tokensPerSecond >= UNPACED_TOKENS_PER_SECOND ? undefined : step.tokensPerSecond }
      : { tokenSize: this.tokenSizeFor(longest) };
    return { message, pacing, delayMs: step.delayMs ?? 0 };
  }

  echoText(context: PiAi.Context): string {
    return `Echo: ${this.lastUserText(context)}`;
  }

  private lastUserText(context: PiAi.Context): string {
    for (let index = context.messages.length - 1; index >= 0; index--) {
      const message = context.messages[index];
      if (message.role !== "user") continue;
      if (typeof message.content === "string") return message.content;
      return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    }
    return "";
  }

  private tokenSizeFor(length: number): number {
    const tokens = length / 4 / TARGET_DELTAS;
    return tokens <= 1 ? 1 : 2 ** Math.ceil(Math.log2(tokens));
  }

  private blockLength(block: PiAi.FauxContentBlock): number {
    if (block.type === "text") return block.text.length;
    if (block.type === "thinking") return block.thinking.length;
    return JSON.stringify(block.arguments).length;
  }
}
