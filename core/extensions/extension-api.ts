/**
 * Everything an extension author sees of Zi, in one file. An extension is a module whose default
 * export is a `ZiExtension`: Zi calls it once, with a `ZiExtensionApi` of its own, while it loads.
 * See docs/extensions.md for the rules (loading order, failures, interruption) and a full example.
 *
 * Only types live here: `import type` them, and the import disappears when Zi loads the extension.
 */
import type { AgentTool, AgentToolContext, AgentToolResult } from "../session/agent-tool.js";
import type { OutcomeInput } from "../session/extension-records.js";
import type { SystemPromptHook, SystemPromptHookContext } from "../context/system-prompt-hooks.js";
import type { ToolCallCheck, ToolCallHook, ToolCallHookContext, ToolCallHookResult } from "../session/tool-call-gate.js";
import type { AgentSessionEvent, OperationOutcome, SessionState, WorkPlan, WorkPlanStep } from "../wire/session-types.js";

export type { ToolCallCheck, ToolCallHook, ToolCallHookContext, ToolCallHookResult };
export type {
  AgentTool,
  AgentToolContext,
  AgentToolResult,
  AgentSessionEvent,
  OperationOutcome,
  OutcomeInput,
  SessionState,
  SystemPromptHook,
  SystemPromptHookContext,
  WorkPlan,
  WorkPlanStep,
};

/** The default export of an extension module. It may be async: Zi waits for it (bounded) before serving requests. */
export type ZiExtension = (zi: ZiExtensionApi) => void | Promise<void>;

/** What a command handler gets besides its raw argument string. */
export interface CommandContext {
  /** Aborted by `session.interrupt`: stop, and throw or return. Zi stops waiting for the handler at once. */
  readonly signal: AbortSignal;
  /** The session's working directory. */
  readonly cwd: string;
  /** The session snapshot at this moment (`activity` is `running` while a command runs). */
  getState(): SessionState;
}

/** Local feedback for the client that invoked the command; it never reaches the journal or the model. */
export interface CommandResult {
  message?: string;
}

export interface ExtensionCommand {
  /** One line for `command.list`. */
  description?: string;
  /**
   * Runs on `command.invoke`, only while the session is idle (the session is `running` meanwhile).
   * `args` is the client's raw string, unparsed ("" when omitted). A throw answers `operation_failed`.
   */
  handler(args: string, context: CommandContext): Promise<CommandResult | void> | CommandResult | void;
}

export interface ExtensionMessage {
  customType: string;
  /** Text the model reads (as a user message) from its next call on. */
  content: string;
  /** true: also shown in `session.get_messages`; false: only the model and the journal see it. */
  display: boolean;
  details?: unknown;
}

export type ExtensionEventListener = (event: AgentSessionEvent) => void | Promise<void>;

export interface ZiExtensionApi {
  /** How Zi names this extension in diagnostics: its file path, or a plugin's name. */
  readonly name: string;
  /** The session's working directory (the project). */
  readonly cwd: string;
  /** Zi's home directory (`ZI_HOME`, default `~/.zi`). */
  readonly ziHome: string;

  /**
   * Adds a command for `command.list` / `command.invoke`. Names are 1-64 bytes of letters, digits and
   * `.` `_` `:` `-`, starting with a letter or digit. Only while loading; a taken name fails the extension.
   */
  registerCommand(name: string, command: ExtensionCommand): void;
  /**
   * Offers a tool to the model. `parameters` is a JSON Schema object; Zi validates the model's
   * arguments against it before `execute`. Stream partial results with `context.onUpdate`, and stop
   * when `context.signal` aborts. Only while loading; a taken name fails the extension.
   */
  registerTool(tool: AgentTool): void;
  /**
   * A gate before every tool call (the session's and its delegated children's), after the schema
   * check and before the permission policy. Return nothing to pass, `{ action: "allow" }` to skip the
   * policy's question (its `deny` rules still apply), `{ action: "deny", message }` (the model reads the
   * message), or `{ action: "rewrite", args }` (checked against the tool's schema again). A throw
   * denies. Hooks run in load order; only while loading. See docs/permissions.md.
   */
  onToolCall(hook: ToolCallHook): void;

  /**
   * Adds to the system prompt of every run: `hook` is called when a run starts (and by `zi prompt`)
   * and its string is appended after Zi's own sections. At most 32 KiB and 5 s; a throw or a timeout
   * is logged and the run goes on without it. Only while loading. See docs/context.md.
   */
  onSystemPrompt(hook: SystemPromptHook): void;

  /** Journals a `custom` entry (announced by `entry_appended`); invisible to the model and to message pages. */
  appendEntry(customType: string, data?: unknown): { id: string };
  /** Journals a `custom_message` the model reads from its next call on. */
  sendMessage(message: ExtensionMessage): { id: string };
  /**
   * Journals an operation outcome, announced by `entry_appended` and `operation_outcome` and paged by
   * `session.get_outcomes`. `evidence` is yours (any JSON), at most 8 KiB encoded.
   */
  recordOutcome(outcome: OutcomeInput): OperationOutcome;
  /** Replaces the whole work plan (revision + 1); see docs/work-plans.md. */
  replaceWorkPlan(steps: WorkPlanStep[]): WorkPlan;
  getState(): SessionState;

  /**
   * Listens to session events of one `type`, or to all with "*" (the same events RPC clients get,
   * `extension_error` included). Listeners run synchronously in event order and must be quick; a
   * returned promise is not awaited. Returns the unsubscribe function.
   */
  on(type: string, listener: ExtensionEventListener): () => void;
  /** Writes to stderr (like console.log), prefixed with `[<name>] `. `console.log` also goes to stderr. */
  log(...values: unknown[]): void;
}
