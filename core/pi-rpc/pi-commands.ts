import { RpcError } from "../kernel/rpc-error.js";
import type { MessagePage, PromptImage, SessionState, SessionUsage, ThinkingList } from "../wire/session-types.js";
import type { PiExtensionUi } from "./pi-extension-ui.js";
import { PiModels } from "./pi-models.js";
import { PiSessions, type PiJournalStart } from "./pi-sessions.js";
import type { PiRpcFlags } from "./pi-rpc-options.js";
import type { MethodCalls } from "./method-calls.js";

/** One pi command line, parsed: `type`, an optional `id` (echoed as it came), the command's fields. */
export type PiCommand = Record<string, unknown> & { type: string; id?: unknown };

/** A command's successful outcome: `data` when the response carries one (pi omits it for some commands). */
export type PiOutcome = { data: unknown } | undefined;

export interface PiCommandSpec {
  run(command: PiCommand): Promise<PiOutcome>;
  /**
   * Waits on the session (abort, an extension command, compaction): later commands are handled meanwhile,
   * as pi handles every line without waiting for the one before. The others answer in input order.
   */
  concurrent?: true;
}

/** The reason a pi command cannot be honoured, in pi's error shape (`success: false, error`). */
const unsupported = (command: string, reason: string) => new RpcError("operation_failed", `${command} is not supported by Zi: ${reason}`);
const SLASH_COMMAND = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/;
const MESSAGE_PAGE = 100;

/**
 * Every command of pi 0.73.1's RPC protocol (its `RpcCommand` union), each on Zi's own methods. What a
 * command cannot do on Zi it refuses with the reason; docs/pi-rpc.md has the table, and a test checks it
 * against the union in the installed pi package.
 */
export class PiCommands {
  readonly table: ReadonlyMap<string, PiCommandSpec>;
  private readonly models: PiModels;

  private readonly sessions: PiSessions;

  constructor(
    private readonly methods: MethodCalls,
    private readonly ui: PiExtensionUi,
    flags: PiRpcFlags | undefined,
    start: PiJournalStart = { noSession: true },
  ) {
    this.models = new PiModels(methods, flags?.models);
    this.sessions = new PiSessions(methods, start);
    // The session-tree family may be left out of a build: then the command says which method it lacks.
    const session = (method: string, run: (command: PiCommand) => Promise<PiOutcome>): PiCommandSpec["run"] => async (command) => {
      if (!methods.has(method)) throw new RpcError("operation_failed", `${command.type} needs Zi's ${method} method, which this build does not serve`);
      return run(command);
    };
    this.table = new Map<string, PiCommandSpec>([
      ["prompt", { run: (c) => this.prompt(c) }],
      ["steer", { run: (c) => this.queue(c, "steer") }],
      ["follow_up", { run: (c) => this.queue(c, "follow_up") }],
      ["abort", { run: () => this.done(methods.call("session.interrupt")), concurrent: true }],
      ["new_session", { run: session("session.new", async () => (await this.sessions.newSession(), { data: { cancelled: false } })) }],
      ["get_state", { run: async () => ({ data: await this.state() }) }],
      ["get_messages", { run: async () => ({ data: { messages: await this.messages() } }) }],
      ["set_model", { run: async (c) => ({ data: await this.models.select(String(c.provider), String(c.modelId)) }) }],
      ["cycle_model", { run: async () => ({ data: await this.models.cycle() }) }],
      ["get_available_models", { run: async () => ({ data: { models: await this.models.available() } }) }],
      ["set_thinking_level", { run: (c) => this.done(methods.call("thinking.select", { level: c.level })) }],
      ["cycle_thinking_level", { run: () => this.cycleThinking() }],
      ["set_steering_mode", { run: (c) => this.queueMode(c, "steeringMode") }],
      ["set_follow_up_mode", { run: (c) => this.queueMode(c, "followUpMode") }],
      ["compact", { run: session("session.compact", (c) => this.compact(c)), concurrent: true }],
      ["set_auto_compaction", { run: (c) => Promise.reject(unsupported(c.type, "automatic compaction is a settings.json setting (compaction.enabled), not a session method")) }],
      ["set_auto_retry", { run: (c) => Promise.reject(unsupported(c.type, "automatic retry is a settings.json setting (retry), not a session method")) }],
      ["abort_retry", { run: () => this.abortRetry(), concurrent: true }],
      ["bash", { run: (c) => Promise.reject(unsupported(c.type, "Zi runs shell commands only as the model's bash tool, under the permission policy; it has no method to run one for the client")) }],
      ["abort_bash", { run: (c) => Promise.reject(unsupported(c.type, "no bash command runs outside the model's tool calls (see bash); abort interrupts a running tool")) }],
      ["get_session_stats", { run: async () => ({ data: await this.stats() }) }],
      ["export_html", { run: session("session.export", async (c) => ({ data: await this.sessions.exportHtml(c.outputPath) })) }],
      ["switch_session", { run: session("session.switch", async (c) => (await this.sessions.switchSession(c.sessionPath), { data: { cancelled: false } })) }],
      ["fork", { run: session("session.fork", async (c) => ({ data: await this.sessions.fork(String(c.entryId)) })) }],
      ["clone", { run: (c) => Promise.reject(unsupported(c.type, "Zi forks at an entry (fork); it has no copy of the whole branch at its leaf")) }],
      ["get_fork_messages", { run: session("session.get_tree", async () => ({ data: { messages: await this.sessions.forkMessages() } })) }],
      ["get_last_assistant_text", { run: async () => ({ data: { text: await this.lastAssistantText() } }) }],
      ["set_session_name", { run: (c) => Promise.reject(unsupported(c.type, "Zi names a session after its first prompt; it has no method to rename it")) }],
      ["get_commands", { run: async () => ({ data: { commands: await this.commands() } }) }],
    ]);
  }

  /**
   * pi: a prompt while the agent runs needs `streamingBehavior`; an extension command (`/name args`) runs
   * at once. Zi's `steer`/`follow_up` delivered while idle would wait for a later turn, so an idle session
   * gets a `direct` prompt whatever the behaviour says, as pi starts a run then.
   */
  private async prompt(command: PiCommand): Promise<PiOutcome> {
    const text = String(command.message ?? "");
    const slash = SLASH_COMMAND.exec(text.trim());
    if (slash) {
      const listed = await this.methods.call<{ commands: { name: string }[] }>("command.list");
      if (listed.commands.some((c) => c.name === slash[1])) {
        void this.methods
          .call<{ message?: string }>("command.invoke", { name: slash[1], arguments: slash[2] ?? "" })
          .then((feedback) => (feedback.message ? this.ui.notify(feedback.message) : undefined))
          .catch((error: Error) => this.ui.notify(error.message, "error"));
        return undefined;
      }
    }
    const behaviour = command.streamingBehavior;
    const running = behaviour === "steer" || behaviour === "followUp" ? isStreaming(await this.state0()) : false;
    const delivery = !running ? "direct" : behaviour === "steer" ? "steer" : "follow_up";
    try {
      await this.methods.call("session.prompt", { delivery, text, ...images(command.images) });
    } catch (error) {
      if (error instanceof RpcError && delivery === "direct" && isStreaming(await this.state0())) {
        throw new RpcError("operation_failed", "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
      }
      throw error;
    }
    return undefined;
  }

  private async queue(command: PiCommand, delivery: "steer" | "follow_up"): Promise<PiOutcome> {
    await this.methods.call("session.prompt", { delivery, text: String(command.message ?? ""), ...images(command.images) });
    return undefined;
  }

  private async done(call: Promise<unknown>): Promise<PiOutcome> {
    await call;
    return undefined;
  }

  private state0(): Promise<SessionState> {
    return this.methods.call<SessionState>("session.get_state");
  }

  /** pi's `RpcSessionState` from Zi's state (docs/pi-rpc.md, get_state). */
  private async state(): Promise<Record<string, unknown>> {
    const state = await this.state0();
    const sessionFile = await this.sessions.sessionFile(state.sessionId);
    return {
      ...(state.model.type === "selected" ? { model: PiModels.project(state.model) } : {}),
      thinkingLevel: state.thinkingLevel,
      isStreaming: isStreaming(state),
      isCompacting: state.compaction.type === "compacting",
      steeringMode: state.steeringMode,
      followUpMode: state.followUpMode,
      ...(sessionFile === undefined ? {} : { sessionFile }),
      sessionId: state.sessionId,
      autoCompactionEnabled: true,
      messageCount: state.messageCount,
      pendingMessageCount: state.queuedInputs.steering.length + state.queuedInputs.followUp.length,
    };
  }

  /** The whole transcript, page by page (100 messages and 8 MiB a page), without Zi's `index`. */
  private async messages(): Promise<Record<string, unknown>[]> {
    const messages: Record<string, unknown>[] = [];
    for (let start: number | null = 0; start !== null; ) {
      const page: MessagePage = await this.methods.call<MessagePage>("session.get_messages", { start, limit: MESSAGE_PAGE });
      for (const { index: _index, ...message } of page.messages) messages.push(message);
      start = page.nextStart;
    }
    return messages;
  }

  /** Zi's queue modes come from settings.json; asking for the mode already in force is honoured. */
  private async queueMode(command: PiCommand, field: "steeringMode" | "followUpMode"): Promise<PiOutcome> {
    const state = await this.state0();
    if (state[field] === command.mode) return undefined;
    throw unsupported(command.type, `the ${field} is ${state[field]}, set by settings.json (${field}); Zi has no method to change it for a session`);
  }

  private async cycleThinking(): Promise<PiOutcome> {
    const { levels, current } = await this.methods.call<ThinkingList>("thinking.list");
    if (levels.length <= 1) return { data: null };
    const next = levels[(levels.indexOf(current) + 1) % levels.length]!;
    const selected = await this.methods.call<{ effective: string }>("thinking.select", { level: next });
    return { data: { level: selected.effective } };
  }

  /** pi's `CompactionResult` is what `session.compact` answers; `customInstructions` are its `instructions`. */
  private async compact(command: PiCommand): Promise<PiOutcome> {
    const instructions = command.customInstructions;
    const params = typeof instructions === "string" && instructions !== "" ? { instructions } : {};
    return { data: await this.methods.call("session.compact", params) };
  }

  /** pi's abort_retry cancels a pending retry wait; on Zi, interrupting does (and ends the run, as pi's does). */
  private async abortRetry(): Promise<PiOutcome> {
    const state = await this.state0();
    if (state.retry.type === "waiting") await this.methods.call("session.interrupt");
    return undefined;
  }

  /** pi's `SessionStats`: counts from the transcript, tokens and cost from `session.get_usage`. */
  private async stats(): Promise<Record<string, unknown>> {
    const [state, usage, messages] = await Promise.all([this.state0(), this.methods.call<SessionUsage>("session.get_usage"), this.messages()]);
    const count = (role: string) => messages.filter((m) => m.role === role).length;
    const toolCalls = messages
      .filter((m) => m.role === "assistant" && Array.isArray(m.content))
      .reduce((sum, m) => sum + (m.content as { type: string }[]).filter((block) => block.type === "toolCall").length, 0);
    const totals = usage.session;
    const context = state.contextUsage;
    const sessionFile = await this.sessions.sessionFile(state.sessionId);
    return {
      ...(sessionFile === undefined ? {} : { sessionFile }),
      sessionId: state.sessionId,
      userMessages: count("user"),
      assistantMessages: count("assistant"),
      toolCalls,
      toolResults: count("toolResult"),
      totalMessages: messages.length,
      tokens: { input: totals.input, output: totals.output, cacheRead: totals.cacheRead, cacheWrite: totals.cacheWrite, total: totals.totalTokens },
      cost: totals.cost,
      ...(context.type === "available"
        ? { contextUsage: { tokens: context.tokens, contextWindow: context.contextWindow, percent: context.percent } }
        : state.model.type === "selected"
          ? { contextUsage: { tokens: null, contextWindow: state.model.contextWindow, percent: null } }
          : {}),
    };
  }

  /** pi: the text blocks of the last assistant message, joined; null when there is none. */
  private async lastAssistantText(): Promise<string | null> {
    const { messageCount } = await this.state0();
    for (let end = messageCount; end > 0; end -= MESSAGE_PAGE) {
      const start = Math.max(0, end - MESSAGE_PAGE);
      const page = await this.methods.call<MessagePage>("session.get_messages", { start, limit: end - start });
      for (let i = page.messages.length - 1; i >= 0; i--) {
        const message = page.messages[i]!;
        if (message.role !== "assistant") continue;
        const blocks = Array.isArray(message.content) ? (message.content as { type: string; text?: string }[]) : [];
        // As pi: an aborted reply with nothing in it does not count.
        if (message.stopReason === "aborted" && blocks.length === 0) continue;
        return blocks
          .filter((block) => block.type === "text")
          .map((block) => block.text ?? "")
          .join("");
      }
    }
    return null;
  }

  private async commands(): Promise<Record<string, unknown>[]> {
    const { commands } = await this.methods.call<{ commands: { name: string; description?: string; source: string }[] }>("command.list");
    return commands.map((command) => ({
      name: command.name,
      ...(command.description === undefined ? {} : { description: command.description }),
      source: "extension",
      sourceInfo: { path: `<${command.source}>`, source: command.source, scope: command.source === "project" ? "project" : "user", origin: "top-level" },
    }));
  }
}

function isStreaming(state: SessionState): boolean {
  return state.activity.type === "running" || state.activity.type === "aborting";
}

function images(value: unknown): { images?: PromptImage[] } {
  return Array.isArray(value) && value.length > 0 ? { images: value as PromptImage[] } : {};
}
