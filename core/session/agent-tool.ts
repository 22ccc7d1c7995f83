import type * as PiAi from "@mariozechner/pi-ai";
import type { ToolDeclaration } from "./tool-declaration.js";
import type { ToolSandbox } from "../sandbox/sandbox-control.js";

/** What a tool returns (and streams as partial results while it runs). */
export interface AgentToolResult {
  content: (PiAi.TextContent | PiAi.ImageContent)[];
  details?: unknown;
  isError?: boolean;
}

export interface AgentToolContext {
  /** Aborted when the run is interrupted: stop work and kill child processes. */
  signal: AbortSignal;
  /** The session's working directory; relative paths resolve against it. */
  cwd: string;
  /** Streams a partial result (`tool_execution_update`). */
  onUpdate(partial: AgentToolResult): void;
  /** The model the run is using, when there is one: what it accepts (`input`) decides, say, whether `read` returns images. */
  model?: { provider: string; id: string; input: readonly ("text" | "image")[] };
  /** Where a tool that starts processes must start them (docs/sandbox.md): it wraps their argv. */
  sandbox?: ToolSandbox;
  /**
   * The permission rules' word on a path a tree search meets below the path its call named (a real
   * path, symlinks resolved): false keeps it out of the results. Absent: every path may be read.
   */
  mayRead?: (real: string) => boolean;
}

/**
 * A tool the model may call. `parameters` is a JSON Schema object (TypeBox schemas are JSON Schema);
 * arguments are validated against it before `execute` runs. Throwing produces an error tool result.
 */
export interface AgentTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Optional: repairs argument shapes models are known to send, before they are validated against `parameters`. */
  prepareArguments?(args: unknown): unknown;
  execute(args: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult>;
  /**
   * For a tool that stops on its own soon after `signal` fires and reports what it stopped (delegate):
   * an interrupted run waits up to this long (at most MAX_ABORT_GRACE_MS) for that result and keeps
   * it. Absent: the run stops waiting for the tool the moment it is interrupted.
   */
  abortGraceMs?: number;
  /**
   * What the tool is and what a call will touch (tool-declaration.ts): the permission rules, read-only
   * mode, ACP and the prompt read it. Absent: effect `other`, never read-only.
   */
  declaration?: ToolDeclaration;
}

/** The longest an interrupt waits for a tool's own result: well inside the 5 s settlement bound. */
export const MAX_ABORT_GRACE_MS = 3000;
