import type { AgentSessionEvent, QueuedInput, SessionEventOf } from "../wire/session-types.js";

type PiEvent = (Record<string, unknown> & { type: string }) | EncodedEvent;

/**
 * An event already encoded as its JSON line. pi's `message_update` carries the growing message twice
 * (as `message` and as the delta's `partial`): encoded once and spliced in twice, it costs half.
 */
export class EncodedEvent {
  constructor(
    readonly type: string,
    readonly json: string,
  ) {}
}
type Block = Record<string, unknown> & { type: string };

/** Zi's delta type → pi's block type and the names of its start/delta/end events. */
const BLOCKS = new Map([
  ["text_delta", { kind: "text", field: "text", events: ["text_start", "text_delta", "text_end"] }],
  ["thinking_delta", { kind: "thinking", field: "thinking", events: ["thinking_start", "thinking_delta", "thinking_end"] }],
  ["toolcall_delta", { kind: "toolCall", field: "partialJson", events: ["toolcall_start", "toolcall_delta", "toolcall_end"] }],
] as const);

/**
 * Only pi's fields are sent, by name, so what Zi adds to an event (a tool call's `call` card, a delegated
 * child's `delegation`) never reaches a pi client. The names are checked against the event's type.
 */
function pick<E extends AgentSessionEvent>(event: E, fields: readonly Exclude<keyof E & string, "type">[]): PiEvent {
  const out: Record<string, unknown> = { type: event.type };
  for (const field of fields) if (event[field] !== undefined) out[field] = event[field];
  return out as PiEvent;
}

/**
 * Zi's session events as pi 0.73.1's bare agent events (docs/pi-rpc.md, Events). Zi streams only the
 * deltas of a reply; pi sends the growing message with each one and brackets each content block with
 * `*_start` / `*_end`, so the partial message is rebuilt here and the brackets are synthesised. A run's
 * `agent_end` carries the messages the run produced, as pi's does.
 */
export class PiEventMapper {
  private partial: (Record<string, unknown> & { content: Block[] }) | undefined;
  private open: { index: number; events: readonly [string, string, string] } | undefined;
  private runMessages: unknown[] = [];
  private readonly toolArgs = new Map<string, unknown>();

  /**
   * The pi events for one Zi event, in order. A Zi event pi has no counterpart for (`activity_changed`,
   * `entry_appended`, `session_switched`, …) maps to none: a pi client never sees it. The switch names
   * every event type of the union core/wire/event-schemas.ts derives, so a type Zi adds later fails to
   * compile here until it is mapped or listed among the ignored.
   */
  map(event: AgentSessionEvent): PiEvent[] {
    switch (event.type) {
      case "agent_start":
        this.runMessages = [];
        return [{ type: "agent_start" }];
      case "turn_start":
        return [{ type: "turn_start" }];
      case "message_start": {
        const message = event.message as unknown as Record<string, unknown>;
        if (message.role === "assistant") this.partial = { ...message, content: [] };
        return [{ type: "message_start", message }];
      }
      case "message_update":
        return this.update(event.assistantMessageEvent);
      case "message_end": {
        const message = event.message as unknown as Record<string, unknown>;
        const out = this.closeBlock(message);
        this.partial = undefined;
        this.runMessages.push(message);
        out.push({ type: "message_end", message });
        return out;
      }
      case "tool_execution_start":
        this.toolArgs.set(event.toolCallId, event.args);
        return [pick(event, ["toolCallId", "toolName", "args"])];
      case "tool_execution_update":
        return [{ type: "tool_execution_update", toolCallId: event.toolCallId, toolName: event.toolName, args: this.toolArgs.get(event.toolCallId), partialResult: event.partialResult }];
      case "tool_execution_end":
        this.toolArgs.delete(event.toolCallId);
        return [pick(event, ["toolCallId", "toolName", "result", "isError"])];
      case "agent_end":
        return [{ type: "agent_end", messages: this.runMessages.splice(0) }];
      case "queue_update":
        return [{ type: "queue_update", steering: texts(event.steering), followUp: texts(event.followUp) }];
      case "compaction_end":
        return [this.compactionEnd(event)];
      case "extension_error":
        return [{ type: "extension_error", extensionPath: event.extension, error: event.error }];
      case "turn_end":
        return [pick(event, ["message", "toolResults"])];
      case "compaction_start":
        return [pick(event, ["reason"])];
      case "auto_retry_start":
        return [pick(event, ["attempt", "maxAttempts", "delayMs", "errorMessage"])];
      case "auto_retry_end":
        return [pick(event, ["success", "attempt", "finalError"])];
      case "activity_changed":
      case "model_changed":
      case "thinking_level_changed":
      case "entry_appended":
      case "leaf_changed":
      case "session_switched":
      case "operation_outcome":
      case "work_plan_changed":
      case "mcp_server_changed":
      case "permission_requested":
      case "permission_resolved":
        return [];
      default: {
        const unhandled: never = event;
        void unhandled;
        return [];
      }
    }
  }

  private update(delta: { type: string; contentIndex: number; delta: string }): PiEvent[] {
    const block = BLOCKS.get(delta.type as "text_delta");
    const partial = this.partial;
    if (!block || !partial) return [];
    const out: PiEvent[] = [];
    if (this.open?.index !== delta.contentIndex) {
      out.push(...this.closeBlock(undefined));
      const fresh: Block = block.kind === "toolCall" ? { type: "toolCall", id: "", name: "", arguments: {}, partialJson: "" } : { type: block.kind, [block.field]: "" };
      partial.content[delta.contentIndex] = fresh;
      this.open = { index: delta.contentIndex, events: block.events };
      out.push(this.updateEvent({ type: block.events[0], contentIndex: delta.contentIndex }));
    }
    const current = partial.content[delta.contentIndex]!;
    current[block.field] = `${current[block.field] as string}${delta.delta}`;
    out.push(this.updateEvent({ type: block.events[1], contentIndex: delta.contentIndex, delta: delta.delta }));
    return out;
  }

  /** The open block's `*_end`, with its final content from the finished message when there is one. */
  private closeBlock(finished: Record<string, unknown> | undefined): PiEvent[] {
    const open = this.open;
    const partial = this.partial;
    this.open = undefined;
    if (!open || !partial) return [];
    const final = (finished?.content as Block[] | undefined)?.[open.index];
    if (final) partial.content[open.index] = final;
    const block = partial.content[open.index]!;
    const fields = block.type === "toolCall" ? { toolCall: block } : { content: block[block.type === "text" ? "text" : "thinking"] };
    return [this.updateEvent({ type: open.events[2], contentIndex: open.index, ...fields })];
  }

  /** pi sends the partial message twice per update: as `message` and as the delta's `partial`. */
  private updateEvent(assistantMessageEvent: Record<string, unknown>): PiEvent {
    const message = JSON.stringify(this.partial);
    const delta = JSON.stringify(assistantMessageEvent);
    return new EncodedEvent("message_update", `{"type":"message_update","message":${message},"assistantMessageEvent":${delta.slice(0, -1)},"partial":${message}}}`);
  }

  /** Zi's event has no `firstKeptEntryId`, `tokensBefore`, `details` or `willRetry`: pi's result carries the summary alone. */
  private compactionEnd(event: SessionEventOf<"compaction_end">): PiEvent {
    return {
      type: "compaction_end",
      reason: event.reason,
      result: event.summary === undefined ? null : { summary: event.summary },
      aborted: event.aborted === true,
      willRetry: false,
      ...(event.errorMessage === undefined ? {} : { errorMessage: event.errorMessage }),
    };
  }
}

function texts(queue: unknown): string[] {
  return Array.isArray(queue) ? (queue as QueuedInput[]).map((input) => input.text) : [];
}
