import { AbortRace } from "./abort-race.js";
import type { FileCheckpoints } from "./file-checkpoints.js";
import type * as PiAi from "@mariozechner/pi-ai";
import type { PiAiLoader } from "../models/pi-ai-loader.js";
import { type AgentTool, type AgentToolContext, type AgentToolResult, MAX_ABORT_GRACE_MS } from "./agent-tool.js";
import type { JournalAppender } from "./journal-appender.js";
import type { SessionStateStore } from "./session-state-store.js";
import type { ToolCallGuard } from "./tool-call-gate.js";
import type { ToolSandbox } from "../sandbox/sandbox-control.js";
import { callInfo, declarationOf, describeCall, type ToolDeclaration } from "./tool-declaration.js";

interface Outcome {
  result: AgentToolResult;
  isError: boolean;
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const failure = (text: string): Outcome => ({ result: { content: [{ type: "text", text }] }, isError: true });

/**
 * Runs the tool calls of one assistant message, in order. Nothing a tool or the model does can
 * crash the run: an unknown tool, arguments that fail the tool's JSON schema, a throw or an
 * interrupt all become error tool results, so every call gets exactly one result message. Between
 * validation and execution the guard (extension hooks, then the permission policy) may rewrite the
 * arguments, deny the call (its message becomes the error result) or keep it waiting for a decision.
 */
export class ToolRunner {
  constructor(
    private readonly store: SessionStateStore,
    private readonly recorder: JournalAppender,
    private readonly piAi: PiAiLoader,
    private readonly cwd: string,
    private readonly guard: ToolCallGuard,
    private readonly checkpoints?: FileCheckpoints,
    private readonly sandbox?: ToolSandbox,
  ) {}

  async run(calls: PiAi.ToolCall[], tools: ReadonlyMap<string, AgentTool>, signal: AbortSignal): Promise<PiAi.ToolResultMessage[]> {
    const messages: PiAi.ToolResultMessage[] = [];
    for (const call of calls) {
      const tool = tools.get(call.name);
      const declaration = declarationOf(tool);
      const info = callInfo(declaration, describeCall(call.name, declaration, call.arguments ?? {}, this.cwd));
      await this.store.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments, call: info });
      const { result, isError } = await this.outcome(call, tool, declaration, signal);
      await this.store.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError });
      // One macrotask turn before going on, so that the result's frame is written now (the protocol
      // writer writes at the end of a turn), not after the journal append and the next model request
      // have been prepared: with a model that answers without I/O, after the whole rest of the run.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const message: PiAi.ToolResultMessage = {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: result.content,
        isError,
        timestamp: Date.now(),
      };
      if (result.details !== undefined) message.details = result.details;
      await this.recorder.recordMessage(message);
      messages.push(message);
    }
    return messages;
  }

  private async outcome(call: PiAi.ToolCall, tool: AgentTool | undefined, declaration: ToolDeclaration, signal: AbortSignal): Promise<Outcome> {
    if (signal.aborted) return failure("Tool call skipped: the run was interrupted.");
    if (!tool) return failure(`Tool "${call.name}" not found.`);
    let args: Record<string, unknown>;
    let validate: (candidate: unknown) => Record<string, unknown>;
    try {
      const piAi = await this.piAi.load();
      const schema = { name: tool.name, description: tool.description, parameters: tool.parameters } as unknown as PiAi.Tool;
      validate = (candidate) => piAi.validateToolArguments(schema, { ...call, arguments: candidate as Record<string, unknown> }) as Record<string, unknown>;
      // A tool may first repair shapes models are known to send; hooks' rewrites are validated as given.
      args = validate(tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments);
    } catch (error) {
      return failure(describe(error));
    }
    const gate = await new AbortRace(signal).run(() => this.guard({ toolCallId: call.id, toolName: call.name, args, declaration }, validate, signal));
    if (gate.type === "failed") return failure(`The tool call was blocked: its permission check failed (${describe(gate.error)}).`);
    // Nothing starts once the run is interrupted, whatever the gate said.
    if (gate.type === "aborted" || signal.aborted) return failure("Tool call skipped: the run was interrupted.");
    if (gate.value.action === "deny") return failure(gate.value.message);
    args = gate.value.args;
    // The sandbox stands behind the rules for writes made in Zi's own process too (bash's are fenced by
    // bubblewrap): judged on the final arguments, after any hook's rewrite.
    if (this.sandbox && declaration.effect === "edit") {
      const refusal = this.sandbox.writeRefusal(describeCall(call.name, declaration, args, this.cwd).paths.map((path) => path.real), this.cwd);
      if (refusal !== undefined) return failure(refusal);
    }
    const checkpoint = this.checkpoints?.before(call.id, call.name, args);
    try {
      const result = await this.execute(call, tool, args, signal, gate.value.mayRead).finally(async () => {
        // Journaled whatever the outcome: a failed or interrupted edit may have changed the file too.
        const entry = checkpoint && this.checkpoints?.after(checkpoint);
        if (entry) await this.recorder.append(entry).delivered;
      });
      if (!result || !Array.isArray(result.content)) return failure(`Tool "${call.name}" returned an invalid result.`);
      return { result, isError: result.isError === true };
    } catch (error) {
      if (signal.aborted) return failure(`Tool "${call.name}" was interrupted.`);
      return failure(describe(error));
    }
  }

  /** Settles when the tool does or when the run is interrupted, whichever comes first. */
  private async execute(call: PiAi.ToolCall, tool: AgentTool, args: Record<string, unknown>, signal: AbortSignal, mayRead: AgentToolContext["mayRead"]): Promise<AgentToolResult> {
    const race = new AbortRace(signal);
    const model = this.store.model;
    const context = {
      signal,
      cwd: this.cwd,
      ...(this.sandbox ? { sandbox: this.sandbox } : {}),
      ...(mayRead ? { mayRead } : {}),
      model: model ? { provider: model.descriptor.provider, id: model.descriptor.id, input: [...model.descriptor.input] } : undefined,
      onUpdate: (partialResult: AgentToolResult): void => {
        // An update after the result would arrive behind tool_execution_end: drop it.
        if (race.settled) return;
        void this.store.emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, partialResult });
      },
    };
    const outcome = await race.run(() => tool.execute(args, context), Math.min(tool.abortGraceMs ?? 0, MAX_ABORT_GRACE_MS));
    if (outcome.type === "done") return outcome.value;
    throw outcome.type === "aborted" ? new Error("interrupted") : outcome.error;
  }
}
