import type * as PiAi from "@mariozechner/pi-ai";
import { RpcError } from "../kernel/rpc-error.js";
import { BufferedModelStream } from "../models/buffered-model-stream.js";
import type { ModelRuntime, ResolvedModel } from "../models/model-runtime.js";
import type { JournalAppender } from "./journal-appender.js";
import type { SessionStateStore } from "./session-state-store.js";
import type { StreamScrubber } from "../config/redactor.js";

const ZERO_USAGE: PiAi.Usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/**
 * One model call, announced as message_start (whole message), message_update (deltas only, so the
 * bytes sent stay linear in the reply's length) and message_end (whole message, after it is
 * journaled). A listener that blocks (returns a promise) stalls the consumption of the model stream
 * until it has accepted the event.
 */
export class AssistantStreamer {
  constructor(
    private readonly runtime: ModelRuntime,
    private readonly store: SessionStateStore,
    private readonly recorder: JournalAppender,
    private readonly sessionId: () => string,
    private readonly warn: (message: string) => void,
  ) {}

  async stream(model: ResolvedModel, context: PiAi.Context, signal: AbortSignal): Promise<PiAi.AssistantMessage> {
    let started = false;
    let reply: PiAi.AssistantMessage | undefined;
    type Scrubbed = { type: "text_delta" | "thinking_delta" | "toolcall_delta"; scrubber: StreamScrubber };
    const start = async (message: PiAi.AssistantMessage): Promise<void> => {
      started = true;
      await this.store.emit({ type: "message_start", message: structuredClone(message) });
    };
    try {
      const events = BufferedModelStream.of(
        await this.runtime.stream(model, context, {
          signal,
          thinkingLevel: this.store.thinkingLevel,
          sessionId: this.sessionId(),
        }),
      );
      // Per content block: a key split across deltas is held back until it is whole (and scrubbed).
      const scrubbers = new Map<number, Scrubbed>();
      const redactor = this.runtime.redactor;
      const flush = async (contentIndex: number): Promise<void> => {
        const scrubber = scrubbers.get(contentIndex);
        scrubbers.delete(contentIndex);
        const rest = scrubber?.scrubber.end();
        if (rest) await this.store.emit({ type: "message_update", assistantMessageEvent: { type: scrubber!.type, contentIndex, delta: rest } });
      };
      try {
        // Events are taken one by one while they wait, and a delta's event is awaited only when a
        // listener holds it back: the per-delta path makes no promise of its own (thousands a reply).
        for (;;) {
          const event = events.take();
          if (event === undefined) {
            if (await events.arrival()) continue;
            break;
          }
          switch (event.type) {
            case "start":
              await start(event.partial);
              break;
            case "text_delta":
            case "thinking_delta":
            case "toolcall_delta": {
              if (!started) await start(event.partial);
              let delta = event.delta;
              if (redactor) {
                let entry = scrubbers.get(event.contentIndex);
                if (!entry) scrubbers.set(event.contentIndex, (entry = { type: event.type, scrubber: redactor.stream() }));
                delta = entry.scrubber.push(delta);
              }
              if (delta === "") break;
              const accepted = this.store.offer({ type: "message_update", assistantMessageEvent: { type: event.type, contentIndex: event.contentIndex, delta } });
              if (accepted) await accepted;
              break;
            }
            case "text_end":
            case "thinking_end":
            case "toolcall_end":
              await flush(event.contentIndex);
              break;
            case "done":
              reply = event.message;
              break;
            case "error":
              reply = event.error;
              break;
          }
        }
      } finally {
        events.close();
      }
      for (const contentIndex of [...scrubbers.keys()]) await flush(contentIndex);
      reply ??= await events.result();
    } catch (error) {
      reply = this.failedReply(model, error, signal);
    }
    if (!started) await start(reply);
    await this.recorder.finishMessage(reply);
    return reply;
  }

  /** A call that threw instead of streaming still ends as a journaled assistant message. */
  private failedReply(model: ResolvedModel, error: unknown, signal: AbortSignal): PiAi.AssistantMessage {
    let errorMessage = "the model call failed";
    if (error instanceof RpcError) errorMessage = error.message;
    else this.warn(`model call to ${model.descriptor.provider}/${model.descriptor.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    return {
      role: "assistant",
      content: [],
      api: model.model.api,
      provider: model.descriptor.provider,
      model: model.descriptor.id,
      usage: structuredClone(ZERO_USAGE),
      stopReason: signal.aborted ? "aborted" : "error",
      errorMessage: signal.aborted ? "Request was aborted" : errorMessage,
      timestamp: Date.now(),
    };
  }
}
