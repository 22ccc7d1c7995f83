import { RequestError } from "@agentclientprotocol/sdk";
import type * as acp from "@agentclientprotocol/sdk";
import type { SessionModule } from "../boot/session-module.js";
import type { PermissionRequest } from "../wire/session-types.js";
import type { AgentSessionEvent } from "../wire/session-types.js";
import { AcpConfigOptions } from "./acp-config-options.js";
import { AcpEventMapper, planUpdate, usageUpdate } from "./acp-event-mapper.js";
import { addMcpServers, type AcpMcpPort } from "./acp-mcp-servers.js";
import { AcpPermissionBridge, type AcpPermissionPort, type PermissionAsker } from "./acp-permission-bridge.js";
import { promptInput } from "./acp-prompt-content.js";
import { AcpSessionStore } from "./acp-session-store.js";
import { replayTranscript } from "./acp-transcript-replay.js";

/** Sends one `session/update` of this session; resolves once it has been written (backpressure). */
export type SessionNotifier = (update: acp.SessionUpdate) => Promise<void>;

/** The ports of a session's plugins the front end uses (resolved once they have loaded; undefined without the plugin). */
export interface AcpPorts {
  permissions(): AcpPermissionPort | undefined;
  mcp(): AcpMcpPort | undefined;
}

/** What a session gets beyond its Zi module: its plugins' ports, the editor's MCP servers, how to ask the editor. */
export interface AcpSessionLinks {
  ports: AcpPorts;
  mcpServers: readonly acp.McpServer[];
  askPermission: PermissionAsker;
  /** Whether the client presents `notice` updates (`session.notices`). */
  notices: boolean;
  /** Forgets the session in the process shell once it is closed. */
  release: () => void;
}

const SLASH_COMMAND = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/;

/**
 * One ACP session over one Zi AgentSession (a SessionModule of its own: journal, model, tools,
 * extensions, cwd). A prompt is a `direct` run whose events stream as `session/update`s and whose
 * `agent_end` decides the stop reason; `session/cancel` is `session.interrupt`.
 */
export class AcpSession {
  private readonly mapper: AcpEventMapper;
  readonly config: AcpConfigOptions;
  readonly permissions: AcpPermissionBridge;
  private unconnected: { name: string; problem: string }[] = [];
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
    private readonly links: AcpSessionLinks,
  ) {
    this.mapper = new AcpEventMapper(cwd, notify, () => module.session.getState().contextUsage, links.notices);
    this.permissions = new AcpPermissionBridge(links.askPermission, log);
    this.config = new AcpConfigOptions(module.session, module.models, module.thinking);
    this.titled = module.session.getState().messageCount > 0;
    this.unsubscribe = module.events.subscribe((event) => this.onEvent(event));
    // Plugins and extensions load while the editor shows the session; prompts and commands wait for them.
    this.startup = module.afterReady().then(() => {
      this.permissions.attach(links.ports.permissions());
      this.unconnected = addMcpServers(links.ports.mcp(), links.mcpServers);
    });
    this.startup.catch((error) => log(`zi: session ${id}: startup failed: ${(error as Error).stack ?? error}`));
  }

  /** A session update outside a prompt turn (commands, notices). */
  send(update: acp.SessionUpdate): Promise<void> {
    return this.notify(update);
  }

  /** True once `close` has begun: a load then opens the journal anew. */
  get closing(): boolean {
    return this.closed;
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

  /**
   * Once plugins have loaded: the editor's MCP servers that could not be handed to the MCP plugin, each
   * with its reason; a `notice` where the client presents them, otherwise an agent message. Never dropped
   * silently (the trap users of other adapters reported).
   */
  async reportUnconnected(): Promise<void> {
    await this.startup;
    if (this.unconnected.length === 0) return;
    const title = `MCP servers not connected: ${this.unconnected.map((server) => server.name).join(", ")}`;
    const description = this.unconnected.map((server) => `${server.name}: ${server.problem}`).join("; ");
    this.log(`zi: session ${this.id}: ${title} (${description})`);
    await this.notify(
      this.links.notices ? { sessionUpdate: "notice", severity: "warning", title, description } : { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${title}. ${description}\n` } },
    );
  }

  /** Once plugins and extensions have loaded: the slash commands, for the editor's `/` menu. */
  async announceCommands(): Promise<void> {
    await this.startup;
    const availableCommands = this.module.commands.list().map((command) => ({ name: command.name, description: command.description ?? "" }));
    await this.notify({ sessionUpdate: "available_commands_update", availableCommands });
  }

  /** `cancelledBefore`: whether a `session/cancel` was sent after this prompt, before it started here. */
  async prompt(blocks: readonly acp.ContentBlock[], cancelledBefore: () => boolean = () => false): Promise<acp.StopReason> {
    if (this.running) throw RequestError.invalidRequest(undefined, "a prompt is already running in this session; cancel it or wait for its answer");
    this.running = true;
    this.cancelled = cancelledBefore();
    this.lastUsed = Date.now();
    try {
      const { text, images } = promptInput(blocks);
      // A text-only model: refused before the turn starts, as `session.prompt` refuses it.
      const refusal = images.length > 0 ? this.module.session.imageRefusal() : undefined;
      if (refusal !== undefined) throw RequestError.invalidParams(undefined, refusal);
      await this.startup;
      await this.announceTitle(text);
      const command = this.slashCommand(text);
      if (command) return await this.runCommand(command.name, command.args);
      if (this.cancelled) return "cancelled";
      const ended = new Promise<AgentSessionEvent>((resolve) => (this.runEnded = resolve));
      await this.module.session.prompt(images.length > 0 ? { delivery: "direct", text, images } : { delivery: "direct", text });
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
    this.permissions.cancelAll();
    await this.module.session.interrupt();
  }

  /** Ends the session: interrupt, then release its journal and providers. */
  async close(): Promise<void> {
    this.cancelled = this.running;
    this.closed = true;
    this.permissions.cancelAll();
    await this.module.cancel().catch(() => undefined);
    this.unsubscribe();
    // The run's own agent_end may not reach this session any more: the prompt answers now.
    this.runEnded?.({ type: "agent_end", reason: "interrupted" });
    await this.module.dispose();
    this.links.release();
  }

  private async onEvent(event: AgentSessionEvent): Promise<void> {
    // Not awaited: the editor's answer comes while the session's events keep flowing.
    if (event.type === "permission_requested") void this.permissions.request(event as unknown as PermissionRequest);
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
