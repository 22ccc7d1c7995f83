import type * as acp from "@agentclientprotocol/sdk";
import type { AgentSessionEvent, ContextUsage, SessionEventOf, WorkPlan } from "../wire/session-types.js";
import { AcpFileSnapshots } from "./acp-file-snapshots.js";
import { type ToolCallDescriber, argumentDiff, changesFiles, toolCallFields, toolPath, toolResultContent } from "./acp-tool-calls.js";
import type { ToolCallInfo } from "../wire/session-types.js";

export type SendUpdate = (update: acp.SessionUpdate) => Promise<void>;

interface ToolCallBlock {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** A Zi work-plan step status as an ACP plan entry status (ACP has no `cancelled`: the title says so). */
const PLAN_STATUS: ReadonlyMap<string, acp.PlanEntryStatus> = new Map<string, acp.PlanEntryStatus>([
  ["pending", "pending"],
  ["in_progress", "in_progress"],
  ["completed", "completed"],
  ["cancelled", "completed"],
]);

export function planUpdate(plan: WorkPlan): acp.SessionUpdate {
  return {
    sessionUpdate: "plan",
    entries: plan.steps.map((step) => ({
      content: step.status === "cancelled" ? `${step.title} (cancelled)` : step.title,
      priority: "medium",
      status: PLAN_STATUS.get(step.status) ?? "pending",
    })),
  };
}

export function usageUpdate(usage: ContextUsage, cost: number): acp.SessionUpdate | undefined {
  if (usage.type !== "available") return undefined;
  const update: acp.SessionUpdate = { sessionUpdate: "usage_update", used: usage.tokens, size: usage.contextWindow };
  return cost > 0 ? { ...update, cost: { amount: cost, currency: "USD" } } : update;
}

/**
 * The one projection of a session onto ACP `session/update`s: live events (`handle`) and, for
 * `session/load`, the journaled messages (`replay`) go through the same mapping. In order: text and thinking deltas
 * become message and thought chunks, a reply's tool calls become `tool_call`s (pending) that the tool
 * runner's start, partial results and end update, work plans become `plan`, and each finished reply
 * a `usage_update`. The user's own prompt is not echoed: the editor already shows it.
 */
export class AcpEventMapper {
  /** Each announced call's name and arguments, and how it presents itself, until it ends. */
  private readonly calls = new Map<string, { name: string; args: Record<string, unknown>; info: ToolCallInfo }>();
  private readonly snapshots = new AcpFileSnapshots();
  private cost = 0;
  /** The stop reason of the last assistant reply (`stop`, `length`, `toolUse`, `aborted`, `error`). */
  lastStopReason: string | undefined;

  constructor(
    /** Kept for the callers; where a call works now comes from its tool's declaration. */
    _cwd: string,
    private readonly send: SendUpdate,
    private readonly contextUsage: () => ContextUsage,
    /** The client presents `notice` updates (`session.notices`): retries and broken extensions are shown there. */
    private readonly notices = false,
    /** The session's tools' declarations, for the calls a reply announces before they start. */
    private readonly describe: ToolCallDescriber = (name) => ({ info: { kind: "other", title: name, locations: [] }, changes: [] }),
  ) {}

  /** The context usage and the cost so far, as the `usage_update` a replay ends with. */
  usage(): acp.SessionUpdate | undefined {
    return usageUpdate(this.contextUsage(), this.cost);
  }

  /**
   * One journaled message of a loaded session, through the same projection as the live events, as the
   * events it was once announced by: the user's text and images as `user_message_chunk`s (live, the
   * editor shows its own prompt); a reply's text and thinking as one delta each, then its end (its
   * tool calls announced, its cost counted, no usage per reply); a tool result as its tool's end (a
   * change's diff from the call's arguments: the file before the call is not in the journal).
   */
  async replay(message: ReplayedMessage): Promise<void> {
    if (message.role === "user") {
      for (const content of contentBlocks(message.content)) await this.send({ sessionUpdate: "user_message_chunk", content });
    } else if (message.role === "assistant") {
      for (const block of (Array.isArray(message.content) ? message.content : []) as { type?: string; text?: unknown; thinking?: unknown }[]) {
        if (block.type === "text") await this.delta({ type: "text_delta", delta: block.text });
        else if (block.type === "thinking") await this.delta({ type: "thinking_delta", delta: block.thinking });
      }
      await this.messageEnd(message, false);
    } else if (message.role === "toolResult" && typeof message.toolCallId === "string") {
      await this.toolEnd({ toolCallId: message.toolCallId, result: { content: message.content, details: message.details }, isError: message.isError === true });
    }
  }

  /**
   * One live event. The switch names every event type (the union core/wire/event-schemas.ts derives):
   * a new type fails to compile here until it is mapped or listed among those ACP has no update for.
   */
  async handle(event: AgentSessionEvent): Promise<void> {
    switch (event.type) {
      case "message_update":
        return this.delta(event.assistantMessageEvent);
      case "message_end":
        return this.messageEnd(event.message as { role?: string; content?: unknown; stopReason?: string; usage?: { cost?: { total?: number } } });
      case "tool_execution_start":
        return this.toolStart(event.toolCallId, event.toolName, (event.args ?? {}) as Record<string, unknown>, event.call);
      case "tool_execution_update":
        return this.toolProgress(event.toolCallId, event.partialResult as { content?: unknown; details?: unknown } | undefined);
      case "tool_execution_end":
        return this.toolEnd(event);
      case "work_plan_changed":
        return this.send(planUpdate(event.workPlan));
      case "auto_retry_start":
        return this.notice("warning", `Retrying the model call (attempt ${String(event.attempt)} of ${String(event.maxAttempts)})`, event.errorMessage);
      case "extension_error":
        return this.notice("error", `Extension ${event.extension} failed`, event.error);
      // No session/update for these: the prompt's answer, the permission requests and ACP's own
      // methods carry what an editor needs of them.
      case "agent_start":
      case "turn_start":
      case "message_start":
      case "turn_end":
      case "agent_end":
      case "queue_update":
      case "activity_changed":
      case "model_changed":
      case "thinking_level_changed":
      case "compaction_start":
      case "compaction_end":
      case "auto_retry_end":
      case "entry_appended":
      case "leaf_changed":
      case "session_switched":
      case "operation_outcome":
      case "mcp_server_changed":
      case "permission_requested":
      case "permission_resolved":
        return undefined;
      default: {
        const unhandled: never = event;
        void unhandled;
        return undefined;
      }
    }
  }

  private async notice(severity: "warning" | "error", title: string, description: unknown): Promise<void> {
    if (!this.notices) return;
    await this.send({ sessionUpdate: "notice", severity, title, ...(typeof description === "string" ? { description } : {}) });
  }

  private async delta(update: { type?: string; delta?: unknown } | undefined): Promise<void> {
    if (typeof update?.delta !== "string" || update.delta === "") return;
    if (update.type === "text_delta") await this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: update.delta } });
    else if (update.type === "thinking_delta") await this.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: update.delta } });
  }

  private async messageEnd(message: { role?: string; content?: unknown; stopReason?: string; usage?: { cost?: { total?: number } } }, live = true): Promise<void> {
    if (message?.role !== "assistant") return;
    this.lastStopReason = message.stopReason;
    const cost = message.usage?.cost?.total;
    if (typeof cost === "number" && Number.isFinite(cost)) this.cost += cost;
    const blocks = Array.isArray(message.content) ? (message.content as { type?: string }[]) : [];
    for (const block of blocks) if (block.type === "toolCall") await this.announce(block as ToolCallBlock);
    if (!live) return;
    const usage = usageUpdate(this.contextUsage(), this.cost);
    if (usage) await this.send(usage);
  }

  private async announce(call: ToolCallBlock, info?: ToolCallInfo): Promise<void> {
    if (this.calls.has(call.id)) return;
    const args = call.arguments ?? {};
    const described = info ?? this.describe(call.name, args).info;
    this.calls.set(call.id, { name: call.name, args, info: described });
    await this.send({ sessionUpdate: "tool_call", toolCallId: call.id, ...toolCallFields(described), status: "pending", rawInput: args });
  }

  private async toolStart(toolCallId: string, toolName: string, args: Record<string, unknown>, info: ToolCallInfo | undefined): Promise<void> {
    await this.announce({ type: "toolCall", id: toolCallId, name: toolName, arguments: args }, info);
    const path = toolPath(this.calls.get(toolCallId)!.info);
    if (path !== undefined) await this.snapshots.capture(toolCallId, path);
    await this.send({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
  }

  private async toolProgress(toolCallId: string, partial: { content?: unknown; details?: unknown } | undefined): Promise<void> {
    const content = toolResultContent(partial?.content);
    if (content.length === 0) return;
    await this.send({ sessionUpdate: "tool_call_update", toolCallId, content, ...(partial?.details === undefined ? {} : { rawOutput: partial.details }) });
  }

  private async toolEnd(event: Pick<SessionEventOf<"tool_execution_end">, "toolCallId" | "result" | "isError">): Promise<void> {
    const toolCallId = event.toolCallId;
    const result = (event.result ?? {}) as { content?: unknown; details?: unknown };
    const failed = event.isError;
    const content = toolResultContent(result.content);
    const call = this.calls.get(toolCallId);
    this.calls.delete(toolCallId);
    if (call && changesFiles(call.info) && !failed) {
      const diff = await this.snapshots.diff(toolCallId);
      content.unshift(...(diff ? [diff] : argumentDiff(this.describe(call.name, call.args))));
    } else {
      this.snapshots.forget(toolCallId);
    }
    await this.send({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: failed ? "failed" : "completed",
      content,
      ...(result.details === undefined ? {} : { rawOutput: result.details }),
    });
  }
}

/** A message of `session.get_messages`, as far as the projection reads it. */
export type ReplayedMessage = { role?: string; content?: unknown; toolCallId?: string; isError?: boolean; details?: unknown; stopReason?: string; usage?: { cost?: { total?: number } } };

/** A user message's content as ACP content blocks (text and images). */
function contentBlocks(content: unknown): acp.ContentBlock[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: acp.ContentBlock[] = [];
  for (const block of content as { type?: string; text?: unknown; data?: unknown; mimeType?: unknown }[]) {
    if (block.type === "text" && typeof block.text === "string" && block.text !== "") blocks.push({ type: "text", text: block.text });
    else if (block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string") blocks.push({ type: "image", data: block.data, mimeType: block.mimeType });
  }
  return blocks;
}
