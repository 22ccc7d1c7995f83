import { SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { AgentSessionEvent } from "../../core/wire/session-types.js";

interface AssistantLike {
  role?: string;
  provider?: string;
  model?: string;
  stopReason?: string;
  usage?: { input?: number; output?: number };
}

/**
 * The spans of one session's runs (the parent's, or a delegated child's), named and attributed after the
 * OpenTelemetry GenAI semantic conventions: `invoke_agent {agent}` for a run, with `chat {model}` for each
 * model call and `execute_tool {tool}` for each tool call as its children. Attributes carry names, ids,
 * counts and reasons only: never prompt text, tool arguments or results (they may hold secrets).
 */
export class RunSpans {
  private run: { span: Span; context: Context } | undefined;
  private chat: Span | undefined;
  private readonly tools = new Map<string, { name: string; span: Span }>();

  constructor(
    private readonly tracer: Tracer,
    private readonly agent: string,
    private readonly sessionId: string,
    /** The context a run starts in, given the traceparent its agent_start carried. */
    private readonly parentOf: (traceparent: string | undefined) => Context,
    /** Called when a run ends (the tracer flushes then). */
    private readonly onRunEnd: () => void = () => {},
  ) {}

  observe(event: AgentSessionEvent): void {
    switch (event.type) {
      case "agent_start":
        return this.startRun(typeof event.traceparent === "string" ? event.traceparent : undefined);
      case "message_start":
        return this.startChat(event.message as AssistantLike);
      case "message_end":
        return this.endChat(event.message as AssistantLike);
      case "tool_execution_start":
        return this.startTool(String(event.toolCallId), String(event.toolName));
      case "tool_execution_end":
        return this.endTool(String(event.toolCallId), event.isError === true);
      case "agent_end":
        return this.endRun(String(event.reason), event.budget as { budget?: string } | undefined);
      default:
        return;
    }
  }

  /** The context of the newest running call of this tool (a delegated child's runs nest under its `delegate` call). */
  openToolContext(name: string): Context | undefined {
    const open = [...this.tools.values()].filter((tool) => tool.name === name).at(-1);
    return open && this.run ? trace.setSpan(this.run.context, open.span) : undefined;
  }

  private startRun(traceparent: string | undefined): void {
    const parent = this.parentOf(traceparent);
    const span = this.tracer.startSpan(
      `invoke_agent ${this.agent}`,
      { kind: SpanKind.INTERNAL, attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": this.agent, "gen_ai.conversation.id": this.sessionId } },
      parent,
    );
    this.run = { span, context: trace.setSpan(parent, span) };
  }

  private startChat(message: AssistantLike): void {
    if (message.role !== "assistant" || !this.run) return;
    this.chat = this.tracer.startSpan(
      `chat ${message.model ?? ""}`.trim(),
      {
        kind: SpanKind.CLIENT,
        attributes: { "gen_ai.operation.name": "chat", "gen_ai.provider.name": message.provider ?? "unknown", "gen_ai.request.model": message.model ?? "unknown" },
      },
      this.run.context,
    );
  }

  private endChat(message: AssistantLike): void {
    if (message.role !== "assistant" || !this.chat) return;
    const span = this.chat;
    this.chat = undefined;
    span.setAttributes({
      "gen_ai.response.model": message.model ?? "unknown",
      "gen_ai.usage.input_tokens": message.usage?.input ?? 0,
      "gen_ai.usage.output_tokens": message.usage?.output ?? 0,
      "gen_ai.response.finish_reasons": [message.stopReason ?? "unknown"],
    });
    if (message.stopReason === "error") span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  private startTool(callId: string, name: string): void {
    if (!this.run) return;
    const span = this.tracer.startSpan(
      `execute_tool ${name}`,
      { kind: SpanKind.INTERNAL, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": callId } },
      this.run.context,
    );
    this.tools.set(callId, { name, span });
  }

  private endTool(callId: string, isError: boolean): void {
    const tool = this.tools.get(callId);
    if (!tool) return;
    this.tools.delete(callId);
    if (isError) tool.span.setStatus({ code: SpanStatusCode.ERROR });
    tool.span.end();
  }

  private endRun(reason: string, budget: { budget?: string } | undefined): void {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    for (const span of [this.chat, ...[...this.tools.values()].map((tool) => tool.span)]) span?.end();
    this.chat = undefined;
    this.tools.clear();
    run.span.setAttribute("zi.run.reason", reason);
    if (budget?.budget) run.span.setAttribute("zi.run.budget", budget.budget);
    if (reason === "failed" || reason === "structured_output_invalid") run.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    run.span.end();
    this.onRunEnd();
  }
}
