import { isAbsolute, resolve } from "node:path";
// The unstable entry: the same v1 agent with the unstable methods (`session/fork`) registrable too.
import { PROTOCOL_VERSION, RequestError, agent } from "@agentclientprotocol/sdk/unstable";
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { SessionModule } from "../boot/session-module.js";
import { RpcError } from "../kernel/rpc-error.js";
import type { ZiMethodClient, ZiMethods } from "../boot/in-process-methods.js";
import type { MethodClient } from "../shell/method-client.js";
import { ACP_OPTIONS_ENTRY, AcpSession } from "./acp-session.js";
import type { AcpPermissionOptions } from "./acp-permission-bridge.js";
import { AcpSessionStore, SESSION_PAGE_SIZE } from "./acp-session-store.js";

/**
 * Creates the Zi session of one ACP session (a fresh journal in `cwd`, or the given journal resumed),
 * begins its deferred startup, and connects its in-process method client (the RPC registry's methods).
 */
export type AcpSessionFactory = (request: { cwd: string; sessionFile?: string }) => Promise<{ module: SessionModule; methods: ZiMethodClient; startup: Promise<void> }>;

interface PromptTurns {
  received: number;
  started: number;
  cancelledThrough: number;
}

/** Idle sessions kept live beyond this many are closed, least recently used first (they can be loaded again). */
export const MAX_LIVE_SESSIONS = 8;

export interface AcpAgentOptions {
  createSession: AcpSessionFactory;
  /** Zi's `session.list` in process, its `scope: "cwd"` being `cwd` (core/boot's `sessionLister`). */
  sessionLister: (cwd: string) => Promise<MethodClient<Pick<ZiMethods, "session.list">>>;
  sessionsDir: string;
  version: string;
  log: (message: string) => void;
  /** Hands a session to the process shell, which attributes uncaught errors to its extensions; returns the release. */
  adopt: (module: SessionModule) => () => void;
}

/**
 * Zi's ACP agent: one handler per ACP v1 method over a map of live sessions. What `initialize`
 * advertises is what these handlers do; nothing is advertised ahead of its wiring.
 */
export class AcpAgent {
  private readonly sessions = new Map<string, AcpSession>();
  private readonly store: AcpSessionStore;
  private clientCapabilities: acp.ClientCapabilities = {};
  /** Per session id: prompts received and started, and the last prompt a cancel was sent after. */
  private readonly promptTurns = new Map<string, PromptTurns>();
  /** Sessions being opened by a load or resume, by id: a concurrent load waits for the same one. */
  private readonly opening = new Map<string, Promise<AcpSession>>();

  constructor(private readonly options: AcpAgentOptions) {
    this.store = new AcpSessionStore(options.sessionsDir);
  }

  /** The connection's signal (aborted once it has closed), from AcpMain. */
  connection: AbortSignal | undefined;

  /** The SDK app with every handler registered. */
  app(): acp.AgentApp {
    return agent({ name: "zi" })
      .onRequest("initialize", ({ params }) => this.guard(() => this.initialize(params)))
      .onRequest("session/new", ({ params, client }) => this.guard(() => this.newSession(params, client)))
      .onRequest("session/load", ({ params, client }) => this.guard(() => this.loadSession(params, client)))
      .onRequest("session/resume", ({ params, client }) => this.guard(() => this.resumeSession(params, client)))
      .onRequest("session/fork", ({ params, client }) => this.guard(() => this.forkSession(params, client)))
      .onRequest("session/list", ({ params }) => this.guard(() => this.list(params.cwd ?? undefined, params.cursor ?? undefined)))
      .onRequest("session/close", ({ params }) => this.guard(() => this.closeSession(params.sessionId)))
      .onRequest("session/prompt", ({ params }) => this.guard(() => this.prompt(params)))
      .onRequest("session/set_config_option", ({ params }) => this.guard(() => this.setConfigOption(params)))
      .onRequest("session/set_mode", ({ params }) => this.guard(() => (this.session(params.sessionId).permissions.setMode(params.modeId), {})))
      // Applied where it arrives, in input order (observe): a handler's turn may come after a later prompt's.
      .onNotification("session/cancel", () => undefined);
  }

  /**
   * Every incoming message, in input order, before its handler runs (AcpWire). A
   * `session/cancel` cancels the prompts of its session sent before it, and nothing sent after it:
   * an idle cancel does not cancel the next prompt.
   */
  observe(message: { id?: unknown; method?: unknown; params?: unknown }): void {
    const sessionId = (message.params as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof sessionId !== "string") return;
    if (message.method === "session/prompt" && message.id !== undefined) this.turns(sessionId).received++;
    else if (message.method === "session/cancel" && message.id === undefined) {
      const turns = this.turns(sessionId);
      turns.cancelledThrough = turns.received;
      if (turns.started > 0 && turns.started <= turns.cancelledThrough) void this.sessions.get(sessionId)?.cancel().catch(() => undefined);
    }
  }

  private async prompt(params: acp.PromptRequest): Promise<acp.PromptResponse> {
    const turns = this.turns(params.sessionId);
    const number = ++turns.started;
    const session = this.session(params.sessionId);
    return { stopReason: await session.prompt(params.prompt, () => turns.cancelledThrough >= number) };
  }

  private turns(sessionId: string): PromptTurns {
    let turns = this.promptTurns.get(sessionId);
    if (!turns) this.promptTurns.set(sessionId, (turns = { received: 0, started: 0, cancelledThrough: 0 }));
    return turns;
  }

  initialize(params: acp.InitializeRequest): acp.InitializeResponse {
    this.clientCapabilities = params.clientCapabilities ?? {};
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        // `fork` is UNSTABLE in the SDK (2.4): its schema is the unstable one (docs/acp.md).
        sessionCapabilities: { list: {}, resume: {}, close: {}, fork: {} },
      },
      agentInfo: { name: "zi", title: "Zi", version: this.options.version },
      authMethods: [],
    };
  }

  /** Interrupts every running prompt and releases every session; for the end of the connection. */
  async closeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((session) => session.close().catch((error) => this.options.log(`zi: closing session ${session.id}: ${(error as Error).message}`))));
  }

  /** Running prompts are interrupted (they answer `cancelled`), so that they settle before shutdown. */
  async cancelAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.cancel().catch(() => undefined)));
  }

  /**
   * `session/list`: Zi's `session.list` (the journals' index, newest first), this cwd's sessions or,
   * without one, all; the opaque cursor is the next page's start.
   */
  private async list(cwd: string | undefined, cursor: string | undefined): Promise<acp.ListSessionsResponse> {
    const start = cursor === undefined ? 0 : Number(Buffer.from(cursor, "base64url").toString());
    if (!Number.isInteger(start) || start < 0) throw RequestError.invalidParams(undefined, "invalid cursor");
    const lister = await this.options.sessionLister(cwd === undefined ? process.cwd() : resolve(cwd));
    const page = await lister.call("session.list", { scope: cwd === undefined ? "all" : "cwd", start, limit: SESSION_PAGE_SIZE });
    const sessions = page.sessions.map((item) => ({
      sessionId: item.id,
      cwd: item.cwd,
      updatedAt: item.modified,
      ...(item.title === null ? {} : { title: item.title }),
    }));
    return page.nextStart === null ? { sessions } : { sessions, nextCursor: Buffer.from(String(page.nextStart)).toString("base64url") };
  }

  private async newSession(params: acp.NewSessionRequest, client: acp.AgentContext): Promise<acp.NewSessionResponse> {
    const session = await this.open(absolute(params.cwd), undefined, client, params.mcpServers);
    return { sessionId: session.id, modes: session.permissions.modes(), configOptions: await session.config.list() };
  }

  private async loadSession(params: acp.LoadSessionRequest, client: acp.AgentContext): Promise<acp.LoadSessionResponse> {
    const session = await this.reopen(params.sessionId, absolute(params.cwd), client, params.mcpServers);
    await session.replay();
    return { modes: session.permissions.modes(), configOptions: await session.config.list() };
  }

  private async resumeSession(params: acp.ResumeSessionRequest, client: acp.AgentContext): Promise<acp.ResumeSessionResponse> {
    const session = await this.reopen(params.sessionId, absolute(params.cwd), client, params.mcpServers ?? []);
    return { modes: session.permissions.modes(), configOptions: await session.config.list() };
  }

  /**
   * `session/fork` (UNSTABLE in the SDK): the source's journal from the root to its leaf, copied by Zi's
   * `session.fork { switch: false }`, opened as a new live session the way `session/load` opens a
   * journal, without the replay (the client asked for a new session). The source stays as it is. Only
   * a live, idle source, in the same cwd: what a running turn has not journaled yet is not forked.
   */
  private async forkSession(params: acp.ForkSessionRequest, client: acp.AgentContext): Promise<acp.ForkSessionResponse> {
    const cwd = absolute(params.cwd);
    const source = this.sessions.get(params.sessionId);
    if (source === undefined || source.closing) throw RequestError.invalidParams(undefined, `session ${params.sessionId} is not open: session/load or session/resume it first`);
    if (source.cwd !== cwd) throw RequestError.invalidParams(undefined, `session ${params.sessionId} belongs to ${source.cwd}, not ${cwd}`);
    if (source.busy) throw RequestError.invalidRequest(undefined, "the session is running a prompt");
    source.lastUsed = Date.now();
    const session = await this.open(cwd, await source.forkJournal(), client, params.mcpServers ?? []);
    return { sessionId: session.id, modes: session.permissions.modes(), configOptions: await session.config.list() };
  }

  /**
   * `session/load` and `session/resume` of a session id: idempotent. A live session (or one being
   * opened by a concurrent load) is the one answered; only a session not live is opened, once.
   */
  private async reopen(sessionId: string, cwd: string, client: acp.AgentContext, mcpServers: readonly acp.McpServer[]): Promise<AcpSession> {
    const live = this.sessions.get(sessionId) ?? (await this.opening.get(sessionId));
    if (live && !live.closing) {
      if (live.cwd !== cwd) throw RequestError.invalidParams(undefined, `session ${sessionId} belongs to ${live.cwd}, not ${cwd}`);
      if (live.busy) throw RequestError.invalidRequest(undefined, "the session is running a prompt");
      live.lastUsed = Date.now();
      return live;
    }
    let opened = this.opening.get(sessionId);
    if (!opened) {
      opened = (async () => {
        const found = await this.store.find(sessionId);
        if (found === undefined) throw RequestError.resourceNotFound(sessionId);
        if (found.cwd !== cwd) throw RequestError.invalidParams(undefined, `session ${sessionId} belongs to ${found.cwd}, not ${cwd}`);
        return this.open(cwd, found.file, client, mcpServers);
      })().finally(() => this.opening.delete(sessionId));
      this.opening.set(sessionId, opened);
    }
    return opened;
  }

  private async open(cwd: string, sessionFile: string | undefined, client: acp.AgentContext, mcpServers: readonly acp.McpServer[]): Promise<AcpSession> {
    await this.evictIdle();
    const restored = sessionFile === undefined ? undefined : await AcpSessionStore.lastCustomEntry(sessionFile, ACP_OPTIONS_ENTRY);
    const { module, methods, startup } = await this.options.createSession(sessionFile === undefined ? { cwd } : { cwd, sessionFile });
    const id = module.session.getState().sessionId;
    // An extension's uncaught error is reported in its session; every session goes on (ProcessShell).
    const release = this.options.adopt(module);
    const session = new AcpSession(id, cwd, module, (update) => client.notify("session/update", { sessionId: id, update }), this.options.log, {
      methods,
      startup,
      ...(isPermissionOptions(restored) ? { restored } : {}),
      mcpServers,
      // A question the connection's end abandoned is answered as ACP answers a cancelled one: no failure to report.
      askPermission: (request) =>
        client.request("session/request_permission", { sessionId: id, ...request }).catch((error: unknown) => {
          if (this.connection?.aborted) return { outcome: { outcome: "cancelled" } };
          throw error;
        }),
      notices: Boolean(this.clientCapabilities.session?.notices),
      release,
    });
    this.sessions.set(id, session);
    // After the response: an update about a session the editor does not know yet would be dropped.
    setImmediate(() => {
      void session.reportUnconnected().catch((error) => this.options.log(`zi: session ${id}: ${(error as Error).message}`));
      void session.announceCommands().catch((error) => this.options.log(`zi: session ${id}: ${(error as Error).message}`));
    });
    return session;
  }

  private async closeSession(sessionId: string): Promise<acp.CloseSessionResponse> {
    const session = this.sessions.get(sessionId);
    if (session === undefined) throw RequestError.resourceNotFound(sessionId);
    this.sessions.delete(sessionId);
    await session.close();
    return {};
  }

  private async setConfigOption(params: acp.SetSessionConfigOptionRequest): Promise<acp.SetSessionConfigOptionResponse> {
    const session = this.session(params.sessionId);
    if (typeof params.value !== "string") throw RequestError.invalidParams(undefined, `${params.configId} takes a value id`);
    await session.config.set(params.configId, params.value);
    return { configOptions: await session.config.list() };
  }

  private session(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId);
    if (session === undefined) throw RequestError.resourceNotFound(sessionId);
    return session;
  }

  private async evictIdle(): Promise<void> {
    const idle = [...this.sessions.values()].filter((session) => !session.busy).sort((a, b) => a.lastUsed - b.lastUsed);
    while (this.sessions.size >= MAX_LIVE_SESSIONS && idle.length > 0) await this.closeSession(idle.shift()!.id);
  }

  /** Errors the client may see pass; Zi's own failures keep their message; anything else is logged and answered `internal error`. */
  private async guard<T>(run: () => T | Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof RequestError) throw error;
      if (error instanceof RpcError) throw acpError(error);
      this.options.log(`zi: acp: ${(error as Error).stack ?? String(error)}`);
      throw RequestError.internalError(undefined, "internal error");
    }
  }
}

/**
 * A method's RpcError as the ACP error an editor shows: params problems (the method's own field
 * problems, or not_found) are invalid params with the problem as the message; every other code is an
 * internal error carrying Zi's client-safe message.
 */
function acpError(error: RpcError): RequestError {
  if (error.code === "invalid_request" && Array.isArray(error.details) && error.details.length > 0) {
    return RequestError.invalidParams(undefined, error.details.map((problem) => problem.problem).join("; "));
  }
  if (error.code === "not_found" || error.code === "invalid_request") return RequestError.invalidParams(undefined, error.message);
  return new RequestError(-32603, error.message);
}

function isPermissionOptions(value: unknown): value is AcpPermissionOptions {
  const options = value as Partial<AcpPermissionOptions> | undefined;
  return typeof options?.modeId === "string" && Array.isArray(options.rejected);
}

function absolute(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, got ${JSON.stringify(cwd)}`);
  return resolve(cwd);
}
