import { ROOT_CONTEXT, TraceFlags, trace, type Context, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { AgentSessionEvent } from "../../core/wire/session-types.js";
import { RunSpans } from "./run-spans.js";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A delegated child as the tracer sees it: its events, its profile, and its session id. */
export interface TracedChild {
  subscribe(listener: (event: AgentSessionEvent) => void): () => void;
  agent: string;
  sessionId: string;
}

/**
 * The session's tracer (docs/headless.md, "Traces"): a run continues its prompt's `traceparent`, else
 * TRACEPARENT from the environment; a delegated child's runs nest under the parent's `execute_tool
 * delegate` span that started them. The exporter is OTLP over HTTP, configured by the standard
 * OTEL_EXPORTER_OTLP_* variables.
 */
export class SessionTracer {
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;
  private readonly main: RunSpans;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    sessionId: string,
  ) {
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME || "zi" }),
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
    });
    this.tracer = this.provider.getTracer("zi");
    this.main = new RunSpans(this.tracer, "zi", sessionId, (traceparent) => SessionTracer.parentContext(traceparent ?? this.env.TRACEPARENT), () => this.flush());
  }

  observe(event: AgentSessionEvent): void {
    this.main.observe(event);
  }

  /** Follows a delegated child until it is closed. */
  observeChild(child: TracedChild): void {
    const parent = this.main.openToolContext("delegate") ?? ROOT_CONTEXT;
    const spans = new RunSpans(this.tracer, child.agent, child.sessionId, () => parent);
    child.subscribe((event) => spans.observe(event));
  }

  /** Flushes what is still buffered and stops the exporter (at dispose: a one-shot process exits next). */
  async shutdown(): Promise<void> {
    await this.provider.shutdown().catch((error: unknown) => process.stderr.write(`zi: telemetry: ${(error as Error).message}\n`));
  }

  /** Exported as each run ends (not awaited: a slow collector never holds up agent_end). */
  private flush(): void {
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
