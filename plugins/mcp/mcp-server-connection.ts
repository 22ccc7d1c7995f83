import type { SandboxMode } from "../../core/wire/session-types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { MCP_LIMITS } from "./mcp-limits.js";
import type { McpServerConfig } from "./mcp-server-config.js";
import type { McpServerState } from "./mcp.port.js";
import type { ProcessStdioTransport } from "./process-stdio-transport.js";

export interface McpConnectionHooks {
  /** The state, the tool list or the failure reason changed. */
  changed(connection: McpServerConnection): void;
  /** A line of the server's stderr. */
  logLine(server: string, line: string): void;
  redact(text: string): string;
  /** A stdio server's argv in the session's sandbox, in the mode its config names; throws naming cause and fix. */
  sandboxed(mode: SandboxMode, argv: readonly string[], cwd: string): Promise<string[]>;
}

export interface McpCallOptions {
  signal: AbortSignal;
  onProgress(progress: number, total: number | undefined, message: string | undefined): void;
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const ZI_VERSION = "0.1.0";

/**
 * One MCP server: connects (stdio or Streamable HTTP) in the background, lists its tools (and lists
 * them again on `notifications/tools/list_changed`), calls them, and survives whatever the server does.
 * A server that exits after it was ready is `failed` but keeps its tools: the next call restarts it,
 * at most MCP_LIMITS.maxRestarts times. `settled` resolves once a start has ended, either way.
 */
export class McpServerConnection {
  state: McpServerState = "starting";
  error: string | undefined;
  tools: Tool[] = [];
  restarts = 0;
  startedAt = 0;
  /** Set once a prompt went on without this server (it is said once). */
  skippedByPrompt = false;
  settled: Promise<void> = Promise.resolve();
  /** A `tools/list` after `notifications/tools/list_changed` still under way: the next model call waits for it. */
  refreshing: Promise<void> | undefined;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private generation = 0;
  /** A list_changed that arrived while starting: the list just taken may predate it. */
  private changedWhileStarting = false;
  private stopping = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly hooks: McpConnectionHooks,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** Whether a call may restart the server (it crashed after being ready, within the bound). */
  get restartable(): boolean {
    return this.state === "failed" && this.tools.length > 0 && this.restarts < MCP_LIMITS.maxRestarts && !this.stopping;
  }

  start(): Promise<void> {
    this.state = "starting";
    this.error = undefined;
    this.changedWhileStarting = false;
    this.skippedByPrompt = false;
    this.startedAt = Date.now();
    const generation = ++this.generation;
    this.hooks.changed(this);
    this.settled = this.connect(generation).then(
      () => this.becomeReady(generation),
      (error: unknown) => this.fail(generation, this.reason(`could not start: ${describe(error)}`)),
    );
    return this.settled;
  }

  async call(tool: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
    if (this.restartable) {
      this.restarts++;
      await this.start();
    } else if (this.state === "starting") {
      // Another call is restarting it: wait for that start.
      await this.settled;
    }
    const client = this.client;
    if (this.state !== "ready" || !client) throw new Error(`MCP server "${this.name}" is ${this.state}${this.error ? `: ${this.error}` : ""}`);
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: options.signal,
        timeout: this.config.toolTimeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: MCP_LIMITS.maxToolCallMs,
        onprogress: (progress) => options.onProgress(progress.progress, progress.total, progress.message),
      })) as CallToolResult;
    } catch (error) {
      if (options.signal.aborted) throw new Error(`the call was cancelled`);
      if ((this.state as McpServerState) === "failed") throw new Error(`MCP server "${this.name}" ${this.error ?? "failed"}`);
      throw new Error(this.hooks.redact(describe(error)));
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.generation++;
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    if (this.state !== "failed") this.state = "stopped";
    await client?.close().catch(() => undefined);
  }

  private async connect(generation: number): Promise<void> {
    const [{ Client }, { ToolListChangedNotificationSchema }] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]);
    const transport = await this.createTransport();
    const client = new Client({ name: "zi", version: ZI_VERSION }, { capabilities: {} });
    // Garbage on stdout, a failed send: reported on stderr, never thrown into Zi.
    // Not once Zi closes the connection itself: the SDK then reports its own abort ("SSE stream
    // disconnected: AbortError"), which is no problem of the server's.
    client.onerror = (error) => {
      if (this.stopping || generation !== this.generation) return;
      this.hooks.logLine(this.name, `(zi) ${this.hooks.redact(describe(error))}`);
    };
    client.onclose = () => this.closed(generation, transport);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.state === "starting") {
        this.changedWhileStarting = true;
        return;
      }
      this.scheduleRefresh(generation);
    });
    this.client = client;
    this.transport = transport;
    const timeout = this.config.startupTimeoutMs;
    const deadline = AbortSignal.timeout(timeout);
    try {
      await client.connect(transport, { timeout, signal: deadline });
      this.tools = await this.listTools(client, deadline);
    } catch (error) {
      await client.close().catch(() => undefined);
      if (deadline.aborted) throw new Error(`did not answer initialize and tools/list within ${timeout} ms`);
      throw error;
    }
  }

  private async createTransport(): Promise<Transport> {
    const { config } = this;
    if (config.transport === "http") {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
      return new StreamableHTTPClientTransport(new URL(config.url!), { requestInit: { headers: config.headers } });
    }
    const { ProcessStdioTransport } = await import("./process-stdio-transport.js");
    const [command, ...args] = config.sandbox ? await this.hooks.sandboxed(config.sandbox, [config.command!, ...config.args], config.cwd ?? process.cwd()) : [config.command!, ...config.args];
    return new ProcessStdioTransport({
      command: command!,
      args,
      env: config.env,
      cwd: config.cwd,
      logLine: (line) => this.hooks.logLine(this.name, line),
      name: `MCP server ${this.name}`,
    });
  }

  private async listTools(client: Client, signal?: AbortSignal): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.config.startupTimeoutMs, signal });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  private async refreshTools(generation: number): Promise<void> {
    const client = this.client;
    if (!client || generation !== this.generation || this.state !== "ready") return;
    try {
      const tools = await this.listTools(client, AbortSignal.timeout(this.config.startupTimeoutMs));
      if (generation !== this.generation || this.state !== "ready") return;
      this.tools = tools;
      this.hooks.changed(this);
    } catch (error) {
      this.hooks.logLine(this.name, `(zi) tools/list after list_changed failed: ${this.hooks.redact(describe(error))}`);
    }
  }

  private becomeReady(generation: number): void {
    if (generation !== this.generation) return;
    this.state = "ready";
    this.error = undefined;
    this.hooks.changed(this);
    if (this.changedWhileStarting) {
      this.changedWhileStarting = false;
      this.scheduleRefresh(generation);
    }
  }

  private scheduleRefresh(generation: number): void {
    const refresh = this.refreshTools(generation).finally(() => {
      if (this.refreshing === refresh) this.refreshing = undefined;
    });
    this.refreshing = refresh;
  }

  private fail(generation: number, reason: string): void {
    if (generation !== this.generation) return;
    this.client = undefined;
    this.state = "failed";
    this.error = reason;
    this.hooks.changed(this);
  }

  /** The connection closed: a crash unless Zi is stopping it. */
  private closed(generation: number, transport: Transport): void {
    if (generation !== this.generation || this.stopping || this.state !== "ready") return;
    const how = (transport as Partial<ProcessStdioTransport>).exitReason ?? "closed the connection";
    const next = this.restarts < MCP_LIMITS.maxRestarts ? `; restarted on the next call of one of its tools (restart ${this.restarts + 1} of ${MCP_LIMITS.maxRestarts})` : "; not restarted again";
    // Out of restarts, its tools are withdrawn with the same change event.
    if (this.restarts >= MCP_LIMITS.maxRestarts) this.tools = [];
    this.fail(generation, this.reason(`${how}${next}`));
  }

  /** A failure reason with what the server said on stderr and how many garbage lines it wrote, redacted. */
  private reason(what: string): string {
    const transport = this.transport as Partial<ProcessStdioTransport> | undefined;
    let text = what;
    if (transport?.exitReason && !text.includes(transport.exitReason)) text += ` (the process ${transport.exitReason})`;
    if (transport?.garbageLines) text += `; it wrote ${transport.garbageLines} stdout line(s) that were not JSON-RPC`;
    if (transport?.stderr) text += `; its stderr ends: ${transport.stderr}`;
    return this.hooks.redact(text);
  }
}
