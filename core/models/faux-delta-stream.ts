import type * as PiAi from "@mariozechner/pi-ai";
import { charBoundary } from "../wire/utf8-clip.js";
import type { FauxPacing } from "./faux-responder.js";
import type { PiAiLight } from "./pi-ai-loader.js";
import type { ReadGate } from "./read-gate.js";

/**
 * Streams a faux reply the way pi-ai's faux provider does (the same events, pacing and usage
 * estimate, with prompt caching off), with two differences that keep a stalled session's cost at the
 * reply's text: each delta is cut from the text only when it is sent, instead of splitting the whole
 * reply into an array of deltas first; and a delta is produced only while the call's ReadGate is
 * open, so a session held back by its output holds the faux model back too, as TCP does for an HTTP
 * provider.
 */
export function streamFauxReply(
  piAi: PiAiLight,
  reply: () => Promise<PiAi.AssistantMessage>,
  context: PiAi.Context,
  model: PiAi.Model<PiAi.Api>,
  pacing: FauxPacing,
  signal: AbortSignal | undefined,
  gate: ReadGate,
): PiAi.AssistantMessageEventStream {
  const stream = piAi.createAssistantMessageEventStream();
  queueMicrotask(async () => {
    let message: PiAi.AssistantMessage;
    try {
      message = withUsageEstimate({ ...structuredClone(await reply()), api: model.api, provider: model.provider, model: model.id }, context);
    } catch (error) {
      const failed = failedMessage(model, error);
      stream.push({ type: "error", reason: "error", error: failed });
      stream.end(failed);
      return;
    }
    await streamDeltas(stream, message, pacing, signal, gate);
  });
  return stream;
}

async function streamDeltas(
  stream: PiAi.AssistantMessageEventStream,
  message: PiAi.AssistantMessage,
  pacing: FauxPacing,
  signal: AbortSignal | undefined,
  gate: ReadGate,
): Promise<void> {
  const partial: PiAi.AssistantMessage = { ...message, content: [] };
  const aborted = (): boolean => {
    if (!signal?.aborted) return false;
    const error: PiAi.AssistantMessage = { ...partial, stopReason: "aborted", errorMessage: "Request was aborted", timestamp: Date.now() };
    stream.push({ type: "error", reason: "aborted", error });
    stream.end(error);
    return true;
  };
  if (aborted()) return;
  stream.push({ type: "start", partial: { ...partial } });
  const charSize = Math.max(1, pacing.tokenSize * 4);
  for (let index = 0; index < message.content.length; index++) {
    if (aborted()) return;
    const block = message.content[index];
    const text = block.type === "text" ? block.text : block.type === "thinking" ? block.thinking : JSON.stringify(block.arguments);
    const kind = block.type === "text" ? "text" : block.type === "thinking" ? "thinking" : "toolcall";
    partial.content = [
      ...partial.content,
      block.type === "text"
        ? { type: "text", text: "" }
        : block.type === "thinking"
          ? { type: "thinking", thinking: "" }
          : { type: "toolCall", id: block.id, name: block.name, arguments: {} },
    ];
    stream.push({ type: `${kind}_start`, contentIndex: index, partial: { ...partial } } as PiAi.AssistantMessageEvent);
    for (let offset = 0, end = 0; offset < text.length || (offset === 0 && text.length === 0); offset = end) {
      // Never between the halves of a surrogate pair (an emoji): a one-unit step takes the pair whole.
      end = charBoundary(text, offset + charSize);
      if (end <= offset) end = Math.min(text.length, offset + 2);
      const chunk = text.slice(offset, end);
      const closed = gate.wait();
      if (closed) await closed;
      await schedule(chunk, pacing.tokensPerSecond);
      if (aborted()) return;
      // A slice of the block's text, not a concatenation: one-token deltas would otherwise build a
      // chain of millions of string nodes.
      const sofar = text.slice(0, offset + chunk.length);
      const current = partial.content[index];
      if (current.type === "text") current.text = sofar;
      else if (current.type === "thinking") current.thinking = sofar;
      stream.push({ type: `${kind}_delta`, contentIndex: index, delta: chunk, partial: { ...partial } } as PiAi.AssistantMessageEvent);
      if (text.length === 0) break;
    }
    if (block.type === "text") stream.push({ type: "text_end", contentIndex: index, content: block.text, partial: { ...partial } });
    else if (block.type === "thinking") stream.push({ type: "thinking_end", contentIndex: index, content: block.thinking, partial: { ...partial } });
    else {
      const current = partial.content[index];
      if (current.type === "toolCall") current.arguments = block.arguments;
      stream.push({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: { ...partial } });
    }
  }
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    stream.push({ type: "error", reason: message.stopReason, error: message });
    stream.end(message);
    return;
  }
  stream.push({ type: "done", reason: message.stopReason, message });
  stream.end(message);
}

function schedule(chunk: string, tokensPerSecond: number | undefined): Promise<void> {
  if (!tokensPerSecond || tokensPerSecond <= 0) return new Promise((resolve) => queueMicrotask(resolve));
  const delayMs = (estimateTokens(chunk) / tokensPerSecond) * 1000;
  return new Promise((resolve) => setTimeout(resolve, delayMs));
}

function failedMessage(model: PiAi.Model<PiAi.Api>, error: unknown): PiAi.AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: usage(0, 0),
    stopReason: "error",
    errorMessage: error instanceof Error ? error.message : String(error),
    timestamp: Date.now(),
  };
}

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

function usage(input: number, output: number): PiAi.Usage {
  return { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** pi-ai's faux estimate: a token per four characters of the serialised prompt and of the reply. */
function withUsageEstimate(message: PiAi.AssistantMessage, context: PiAi.Context): PiAi.AssistantMessage {
  const prompt = serializeContext(context);
  return { ...message, usage: usage(estimateTokens(prompt), estimateTokens(assistantText(message.content))) };
}

function serializeContext(context: PiAi.Context): string {
  const parts: string[] = [];
  if (context.systemPrompt) parts.push(`system:${context.systemPrompt}`);
  for (const message of context.messages) parts.push(`${message.role}:${messageText(message)}`);
  if (context.tools?.length) parts.push(`tools:${JSON.stringify(context.tools)}`);
  return parts.join("\n\n");
}

function messageText(message: PiAi.Message): string {
  if (message.role === "user") return contentText(message.content);
  if (message.role === "assistant") return assistantText(message.content);
  return [message.toolName, ...message.content.map((block) => contentText([block]))].join("\n");
}

function contentText(content: string | (PiAi.TextContent | PiAi.ImageContent)[]): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : `[image:${block.mimeType}:${block.data.length}]`)).join("\n");
}

function assistantText(content: PiAi.AssistantMessage["content"]): string {
  return content
    .map((block) => (block.type === "text" ? block.text : block.type === "thinking" ? block.thinking : `${block.name}:${JSON.stringify(block.arguments)}`))
    .join("\n");
}
