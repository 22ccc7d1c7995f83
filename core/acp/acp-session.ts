import { RequestError } from "@agentclientprotocol/sdk/unstable";
import type * as acp from "@agentclientprotocol/sdk";
import type { McpServer } from "@agentclientprotocol/sdk/unstable";
import type { SessionModule } from "../boot/session-module.js";
import type { ZiMethodClient } from "../boot/in-process-methods.js";
import type { AgentSessionEvent, PermissionRequest, SessionEventOf } from "../wire/session-types.js";
import { AcpConfigOptions } from "./acp-config-options.js";
import { AcpEventMapper, planUpdate } from "./acp-event-mapper.js";
import { addMcpServers } from "./acp-mcp-servers.js";
import { AcpPermissionBridge, type AcpPermissionOptions, type PermissionAsker } from "./acp-permission-bridge.js";
import { promptInput } from "./acp-prompt-content.js";
import { AcpSessionStore } from "./acp-session-store.js";
import { replayTranscript } from "./acp-transcript-replay.js";

/** Sends one `session/update` of this session; resolves once it has been written (backpressure). */
export type SessionNotifier = (update: acp.SessionUpdate) => Promise<void>;

/** The custom journal entry that keeps an ACP session's mode and "Always reject" rules across reconnects. */
export const ACP_OPTIONS_ENTRY = "acp_session_options";

/** What a session gets beyond its Zi module: its method client, the editor's MCP servers, how to ask the editor. */
export interface AcpSessionLinks {
  /** The session's methods, in process: the same registry, handlers and bounds as RPC mode. */
  methods: ZiMethodClient;
  /** The session's deferred startup (plugins, extensions), begun when it was created. */
  startup: Promise<void>;
  /** The options journaled by an earlier connection (a loaded or resumed session). */
  restored?: AcpPermissionOptions;
  /** As the agent app parses them (the unstable schema, for `session/fork`). */
  mcpServers: readonly McpServer[];
  askPermission: PermissionAsker;
  /** Whether the client presents `notice` updates (`session.notices`). */
  notices: boolean;
  /** Forgets the session in the process shell once it is closed. */
  release: () => void;
}

const SLASH_COMMAND = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/;

/**
 * One ACP session over one Zi AgentSession (a SessionModule of its own: journal, model, tools,
 * extensions, cwd), reached through its methods in process (`links.methods`): a prompt is a
 * `session.prompt` (`direct`) whose events stream as `session/update`s and whose `agent_end` decides
 * the stop reason; `session/cancel` is `session.interrupt`; commands are `command.list` and
 * `command.invoke`; modes are `permission.set_policy`; the editor's MCP servers `mcp.add`.
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
  private runEnded: ((event: SessionEventOf<"agent_end">) => void) | undefined;
  lastUsed = Date.now();

  constructor(
    readonly id: string,
    readonly cwd: string,
    private readonly module: SessionModule,
    private readonly notify: SessionNotifier,
    private readonly log: (message: string) => void,
    private readonly links: AcpSessionLinks,
  ) {
    const methods = links.methods;
    this.mapper = new AcpEventMapper(cwd, notify, () => module.session.getState().contextUsage, links.notices, (name, args) => module.session.describeToolCall(name, args));
    this.permissions = new AcpPermissionBridge(links.askPermission, log);
    if (links.restored) this.permissions.restore(links.restored);
    // Journaled, so that a client that reconnects (load, resume) finds the mode it left.
    this.permissions.onChange = (options) => {
      try {
        module.journalEntry?.(ACP_OPTIONS_ENTRY, options);
      } catch (error) {
        log(`zi: session ${id}: the ACP mode was not journaled: ${(error as Error).message}`);
      }
    };
    this.config = new AcpConfigOptions(methods, module.models);
    this.titled = module.session.getState().messageCount > 0;
    this.unsubscribe = methods.subscribe((event) => this.onEvent(event));
    // Plugins and extensions load while the editor shows the session; prompts and commands wait for them.
    this.startup = links.startup.then(async () => {
      const served = new Set(methods.names());
      this.permissions.attach(
        served.has("permission.set_policy")
          ? {
              setPolicy: (layer) => methods.call("permission.set_policy", { default: layer.default ?? "ask", rules: layer.rules }),
              resolve: (requestId, decision, message) => methods.call("permission.resolve", message === undefined ? { requestId, decision } : { requestId, decision, message }),
            }
          : undefined,
      );
      const add = served.has("mcp.add") ? (name: string, config: Record<string, unknown>) => methods.call("mcp.add", { name, config }) : undefined;
      this.unconnected = await addMcpServers(add, links.mcpServers);
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
    // The calls are described by their tools' declarations: the tools register in the deferred startup.
    await this.startup.catch(() => undefined);
    await replayTranscript(this.links.methods, this.mapper);
    const state = this.module.session.getState();
    if (state.workPlan.steps.length > 0) await this.notify(planUpdate(state.workPlan));
    const usage = this.mapper.usage();
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
    const { commands } = await this.links.methods.call("command.list");
    const availableCommands = commands.map((command) => ({ name: command.name, description: command.description ?? "" }));
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
      await this.startup;
      const command = await this.slashCommand(text);
      if (!command) {
        // A text-only model: refused before the turn starts, by `session.prompt` itself (invalid params).
        const ended = new Promise<SessionEventOf<"agent_end">>((resolve) => (this.runEnded = resolve));
        if (this.cancelled) return "cancelled";
        const methods = this.links.methods;
        const started = methods.call("session.prompt", images.length > 0 ? { delivery: "direct", text, images } : { delivery: "direct", text });
        await started;
        await this.announceTitle(text);
        if (this.cancelled) await methods.call("session.interrupt");
        const end = await ended;
        if (!this.closed) await methods.call("session.await_idle", {});
        if (this.cancelled || end.reason === "interrupted") return "cancelled";
        if (end.reason === "failed") throw new RequestError(-32603, typeof end.errorMessage === "string" ? end.errorMessage : "the model call failed");
        return this.mapper.lastStopReason === "length" ? "max_tokens" : "end_turn";
      }
      await this.announceTitle(text);
      return await this.runCommand(command.name, command.args);
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

  /**
   * `session/fork`: Zi's `session.fork` at the current leaf without switching, so this session stays as
   * it is; answers the new journal's file, for the agent to open as a session of its own.
   */
  async forkJournal(): Promise<string> {
    const methods = this.links.methods;
    const { leafId } = await methods.call("session.get_tree", { start: 0, limit: 1 });
    const fork = await methods.call("session.fork", { entryId: leafId, switch: false });
    if (fork.path === null) throw new RequestError(-32603, "the fork has no journal file");
    return fork.path;
  }

  /** `session/cancel`: interrupts the run (and a running command); the prompt then answers `cancelled`. */
  async cancel(): Promise<void> {
    if (!this.running) return;
    this.cancelled = true;
    this.permissions.cancelAll();
    await this.links.methods.call("session.interrupt");
  }

  /** Ends the session: interrupt, then release its journal and providers. */
  async close(): Promise<void> {
    this.cancelled = this.running;
    this.closed = true;
    this.permissions.close();
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
  private async slashCommand(text: string): Promise<{ name: string; args: string } | undefined> {
    const match = SLASH_COMMAND.exec(text.trim());
    if (!match) return undefined;
    const name = match[1]!;
    const { commands } = await this.links.methods.call("command.list");
    return commands.some((command) => command.name === name) ? { name, args: match[2] ?? "" } : undefined;
  }

  private async runCommand(name: string, args: string): Promise<acp.StopReason> {
    // Checked right before the invoke, which registers the command with the session synchronously:
    // a cancel is either seen here or interrupts the command.
    if (this.cancelled) return "cancelled";
    const feedback = await this.links.methods.call("command.invoke", { name, arguments: args });
    if (feedback.message) await this.notify({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: feedback.message } });
    await this.links.methods.call("session.await_idle", {});
    return this.cancelled ? "cancelled" : "end_turn";
  }
}
