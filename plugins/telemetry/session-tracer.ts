import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { AgentSessionEvent } from "../../core/wire/session-types.js";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

interface AssistantLike {
  role?: string;
  provider?: string;
  model?: string;
  stopReason?: string;
  usage?: { input?: number; output?: number; cacheRead?: number };
}

/**
 * Spans named and attributed after the OpenTelemetry GenAI semantic conventions: `invoke_agent zi` for
 * a run (parent: the run's `traceparent`, else TRACEPARENT from the environment), `chat {model}` for each
 * model call and `execute_tool {tool}` for each tool call, both children of the run. Attributes carry
 * names, ids, counts and reasons only: never prompt text, tool arguments or results (they may hold
 * secrets). The exporter is OTLP over HTTP, configured by the standard OTEL_EXPORTER_OTLP_* variables.
 */
export class SessionTracer {
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;
  private run: { span: Span; context: Context } | undefined;
  private chat: Span | undefined;
  private readonly tools = new Map<string, Span>();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly sessionId: string,
  ) {
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME || "zi" }),
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
    });
    this.tracer = this.provider.getTracer("zi");
  }

  observe(event: AgentSessionEvent): void | Promise<void> {
    switch (event.type) {
      case "agent_start":
        return this.startRun(typeof event.traceparent === "string" ? event.traceparent : this.env.TRACEPARENT);
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

  /** Flushes what is still buffered and stops the exporter (at dispose: a one-shot process exits next). */
  async shutdown(): Promise<void> {
    await this.provider.shutdown().catch((error: unknown) => process.stderr.write(`zi: telemetry: ${(error as Error).message}\n`));
  }

  private startRun(traceparent: string | undefined): void {
    const parent = SessionTracer.parentContext(traceparent);
    const span = this.tracer.startSpan(
      "invoke_agent zi",
      { kind: SpanKind.INTERNAL, attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "zi", "gen_ai.conversation.id": this.sessionId } },
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
    this.tools.set(callId, span);
  }

  private endTool(callId: string, isError: boolean): void {
    const span = this.tools.get(callId);
    if (!span) return;
    this.tools.delete(callId);
    if (isError) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  private endRun(reason: string, budget: { budget?: string } | undefined): void {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    for (const span of [this.chat, ...this.tools.values()]) span?.end();
    this.chat = undefined;
    this.tools.clear();
    run.span.setAttribute("zi.run.reason", reason);
    if (budget?.budget) run.span.setAttribute("zi.run.budget", budget.budget);
    if (reason === "failed" || reason === "structured_output_invalid") run.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    run.span.end();
    // Exported as each run ends (not awaited: a slow collector never holds up agent_end); dispose
    // waits for what is still on its way.
    void this.provider.forceFlush().catch((error: unknown) => process.stderr.write(`zi: telemetry: ${(error as Error).message}\n`));
  }

  /** The W3C trace context a run continues, or the root (a new trace) when there is none or it is malformed. */
  private static parentContext(traceparent: string | undefined): Context {
    const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent.trim());
    if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return ROOT_CONTEXT;
    const flags = Number.parseInt(match[3], 16) & TraceFlags.SAMPLED;
    return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1], spanId: match[2], traceFlags: flags, isRemote: true });
  }
}
