import { stat } from "node:fs/promises";
import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import { BashOutputCollector, type CollectedOutput } from "./bash-output-collector.js";
import { type BashExit, BashRun } from "./bash-run.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { ToolArgs } from "./tool-args.js";

const { maxOutputLines, maxOutputBytes, defaultTimeoutMs, maxTimeoutMs } = CODING_TOOL_LIMITS;

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

/** `bash`: runs a shell command in the working directory; full output beyond the bounds goes to a log file. */
export class BashTool implements AgentTool {
  readonly name = "bash";
  readonly description =
    "Run a command with `bash -c` in the working directory (stdin is empty; stdout and stderr are combined). " +
    `Returns the last ${maxOutputLines} lines / ${maxOutputBytes / 1024} KiB of output; when there is more, the full output ` +
    `is saved to a log file whose path is given. Default timeout ${defaultTimeoutMs / 1000} s (timeout in seconds, at most ${maxTimeoutMs / 1000}); ` +
    "on timeout the whole process tree is killed. A non-zero exit code is reported as an error. " +
    "Background jobs (`cmd &`) are not waited for; redirect their output to a file.";
  readonly parameters = {
    type: "object",
    properties: {
      command: { type: "string", description: "The bash command line to run." },
      timeout: {
        type: "number",
        exclusiveMinimum: 0,
        maximum: maxTimeoutMs / 1000,
        description: `Kill the command after this many seconds (default ${defaultTimeoutMs / 1000}).`,
      },
      timeoutMs: {
        type: "integer",
        minimum: 1,
        maximum: maxTimeoutMs,
        description: "The same bound in milliseconds (give timeout or timeoutMs, not both).",
      },
    },
    required: ["command"],
    additionalProperties: false,
  };

  readonly declaration: ToolDeclaration = {
    effect: "execute",
    describe: (args) => {
      const command = typeof args.command === "string" ? args.command : "";
      return { title: command.trim() === "" ? "Run a command" : command, paths: [], command };
    },
  };

  constructor(private readonly logDir: string) {}

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const command = args.requiredString("command");
    const timeoutMs = BashTool.readTimeout(args);
    if (context.signal.aborted) throw new Error("bash was interrupted before it started.");
    const cwdStats = await stat(context.cwd).catch(() => undefined);
    if (!cwdStats?.isDirectory()) throw new Error(`bash: the working directory ${context.cwd} does not exist.`);

    const output = new BashOutputCollector(this.logDir, maxOutputLines, maxOutputBytes);
    // Wrapped in the session's sandbox (docs/sandbox.md); a sandbox that cannot start throws, naming cause and fix, and nothing runs.
    const argv = context.sandbox ? await context.sandbox.command(["bash", "-c", command], context.cwd) : ["bash", "-c", command];
    const exit = await new BashRun({ argv, cwd: context.cwd, timeoutMs, signal: context.signal, output, onUpdate: context.onUpdate }).run();
    const collected = await output.close();
    return BashTool.result(exit, collected, timeoutMs);
  }

  /** `timeout` (seconds, as models and pi write it) or `timeoutMs`; both bounded by the same ceiling. */
  private static readTimeout(args: ToolArgs): number {
    const inMs = args.optionalInteger("timeoutMs", { min: 1, max: maxTimeoutMs });
    const seconds = args.raw("timeout");
    if (seconds === undefined || seconds === null) return inMs ?? defaultTimeoutMs;
    if (inMs !== undefined) throw new Error('bash: give "timeout" (seconds) or "timeoutMs", not both.');
    if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0 || seconds > maxTimeoutMs / 1000) {
      throw new Error(`bash: "timeout" must be a number of seconds above 0 and at most ${maxTimeoutMs / 1000}.`);
    }
    return Math.max(1, Math.round(seconds * 1000));
  }

  private static result(exit: BashExit, collected: CollectedOutput, timeoutMs: number): AgentToolResult {
    const notes: string[] = [];
    if (collected.truncated) {
      const shownLines = collected.text.length === 0 ? 0 : collected.text.replace(/\n$/, "").split("\n").length;
      const where = collected.logPath ? `Full output: ${collected.logPath}` : `The full output could not be saved (${collected.logError ?? "unknown error"})`;
      notes.push(`Output truncated: showing the last ${shownLines} of ${collected.totalLines} lines (${kib(collected.totalBytes)} in total). ${where}`);
    }
    if (exit.timedOut) notes.push(`Command timed out after ${timeoutMs} ms; its process tree was killed.`);
    else if (exit.interrupted) notes.push("Command was interrupted; its process tree was killed.");
    else if (exit.exitCode === null) notes.push(`Command was killed by ${exit.signal ?? "a signal"}.`);
    else if (exit.exitCode !== 0) notes.push(`Command exited with code ${exit.exitCode}.`);
    const body = collected.text.length > 0 ? collected.text.replace(/\n$/, "") : "(no output)";
    const text = notes.length > 0 ? `${body}\n\n${notes.map((n) => `[${n}]`).join("\n")}` : body;
    const details: Record<string, unknown> = {
      exitCode: exit.exitCode,
      signal: exit.signal,
      timedOut: exit.timedOut,
      interrupted: exit.interrupted,
      truncated: collected.truncated,
      totalBytes: collected.totalBytes,
      totalLines: collected.totalLines,
    };
    if (collected.logPath) details.fullOutputPath = collected.logPath;
    const isError = exit.timedOut || exit.interrupted || exit.exitCode !== 0;
    return { content: [{ type: "text", text }], details, isError };
  }
}
