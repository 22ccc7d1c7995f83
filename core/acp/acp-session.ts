import { RequestError } from "@agentclientprotocol/sdk";
import type * as acp from "@agentclientprotocol/sdk";
import type { SessionModule } from "../boot/session-module.js";
import type { AgentSessionEvent } from "../wire/session-types.js";
import { AcpConfigOptions } from "./acp-config-options.js";
import { AcpEventMapper, planUpdate, usageUpdate } from "./acp-event-mapper.js";
import { promptText } from "./acp-prompt-content.js";
import { AcpSessionStore } from "./acp-session-store.js";
import { replayTranscript } from "./acp-transcript-replay.js";

/** Sends one `session/update` of this session; resolves once it has been written (backpressure). */
export type SessionNotifier = (update: acp.SessionUpdate) => Promise<void>;

const SLASH_COMMAND = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/;

/**
 * One ACP session over one Zi AgentSession (a SessionModule of its own: journal, model, tools,
 * extensions, cwd). A prompt is a `direct` run whose events stream as `session/update`s and whose
 * `agent_end` decides the stop reason; `session/cancel` is `session.interrupt`.
 */
export class AcpSession {
  private readonly mapper: AcpEventMapper;
  readonly config: AcpConfigOptions;
  private readonly unsubscribe: () => void;
  private readonly startup: Promise<void>;
  private running = false;
  private cancelled = false;
  private closed = false;
  private titled: boolean;
  private runEnded: ((event: AgentSessionEvent) => void) | undefined;
  lastUsed = Date.now();

  constructor(
    readonly id: string,
    readonly cwd: string,
    private readonly module: SessionModule,
    private readonly notify: SessionNotifier,
    private readonly log: (message: string) => void,
    notices = false,
  ) {
    this.mapper = new AcpEventMapper(cwd, notify, () => module.session.getState().contextUsage, notices);
    this.config = new AcpConfigOptions(module.session, module.models, module.thinking);
    this.titled = module.session.getState().messageCount > 0;
    this.unsubscribe = module.events.subscribe((event) => this.onEvent(event));
    // Plugins and extensions load while the editor shows the session; prompts and commands wait for them.
    this.startup = module.afterReady();
    this.startup.catch((error) => log(`zi: session ${id}: startup failed: ${(error as Error).stack ?? error}`));
  }

  /** A session update outside a prompt turn (commands, notices). */
  send(update: acp.SessionUpdate): Promise<void> {
    return this.notify(update);
  }

  get busy(): boolean {
    return this.running;
  }

  /** `session/load`: the transcript, the work plan and the context usage, as updates. */
  async replay(): Promise<void> {
    const cost = await replayTranscript(this.module.session, this.cwd, this.notify);
    this.mapper.addCost(cost);
    const state = this.module.session.getState();
    if (state.workPlan.steps.length > 0) await this.notify(planUpdate(state.workPlan));
    const usage = usageUpdate(state.contextUsage, cost);
    if (usage) await this.notify(usage);
  }

  /** Once plugins and extensions have loaded: the slash commands, for the editor's `/` menu. */
  async announceCommands(): Promise<void> {
    await this.startup;
    const availableCommands = this.module.commands.list().map((command) => ({ name: command.name, description: command.description ?? "" }));
    await this.notify({ sessionUpdate: "available_commands_update", availableCommands });
  }

  async prompt(blocks: readonly acp.ContentBlock[]): Promise<acp.StopReason> {
    if (this.running) throw RequestError.invalidRequest(undefined, "a prompt is already running in this session; cancel it or wait for its answer");
    this.running = true;
    this.cancelled = false;
    this.lastUsed = Date.now();
    try {
      const text = promptText(blocks);
      await this.startup;
      await this.announceTitle(text);
      const command = this.slashCommand(text);
      if (command) return await this.runCommand(command.name, command.args);
      if (this.cancelled) return "cancelled";
      const ended = new Promise<AgentSessionEvent>((resolve) => (this.runEnded = resolve));
      await this.module.session.prompt({ delivery: "direct", text });
      if (this.cancelled) await this.module.session.interrupt();
      const end = await ended;
      if (!this.closed) await this.module.session.awaitIdle(undefined, new AbortController().signal);
      if (this.cancelled || end.reason === "interrupted") return "cancelled";
      if (end.reason === "failed") throw new RequestError(-32603, typeof end.errorMessage === "string" ? end.errorMessage : "the model call failed");
      return this.mapper.lastStopReason === "length" ? "max_tokens" : "end_turn";
    } catch (error) {
      // ACP: once the client cancelled, the answer is `cancelled` whatever the interrupt caused.
      if (this.cancelled) return "cancelled";
      throw error;
    } finally {
      this.runEnded = undefined;
      this.running = false;
      this.lastUsed = Date.now();
    }
  }

  /** `session/cancel`: interrupts the run (and a running command); the prompt then answers `cancelled`. */
  async cancel(): Promise<void> {
    if (!this.running) return;
    this.cancelled = true;
    await this.module.session.interrupt();
  }

  /** Ends the session: interrupt, then release its journal and providers. */
  async close(): Promise<void> {
    this.cancelled = this.running;
    this.closed = true;
    await this.module.cancel().catch(() => undefined);
    this.unsubscribe();
    // The run's own agent_end may not reach this session any more: the prompt answers now.
    this.runEnded?.({ type: "agent_end", reason: "interrupted" });
    await this.module.dispose();
  }

  private async onEvent(event: AgentSessionEvent): Promise<void> {
    try {
      await this.mapper.handle(event);
    } catch (error) {
      this.log(`zi: session ${this.id}: an update could not be sent: ${(error as Error).message}`);
    }
    if (event.type === "agent_end") this.runEnded?.(event);
  }

  private async announceTitle(text: string): Promise<void> {
    if (this.titled) return;
    this.titled = true;
    const title = AcpSessionStore.titleOf(text);
    if (title !== undefined) await this.notify({ sessionUpdate: "session_info_update", title, updatedAt: new Date().toISOString() });
  }

  /** A prompt `/name args` names a command when `command.list` has that name; anything else is an ordinary prompt. */
  private slashCommand(text: string): { name: string; args: string } | undefined {
    const match = SLASH_COMMAND.exec(text.trim());
    if (!match) return undefined;
    const name = match[1]!;
    return this.module.commands.list().some((command) => command.name === name) ? { name, args: match[2] ?? "" } : undefined;
  }

  private async runCommand(name: string, args: string): Promise<acp.StopReason> {
    // Checked right before the invoke, which registers the command with the session synchronously:
    // a cancel is either seen here or interrupts the command.
    if (this.cancelled) return "cancelled";
    const feedback = await this.module.commands.invoke(name, args);
    if (feedback.message) await this.notify({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: feedback.message } });
    await this.module.session.awaitIdle(undefined, new AbortController().signal);
    return this.cancelled ? "cancelled" : "end_turn";
  }
}
