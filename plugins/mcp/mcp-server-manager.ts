import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { nestsDeeperThan } from "../../core/wire/json-depth.js";
import type { SessionEventOf } from "../../core/wire/session-types.js";
import type { ZiExtensionApi } from "../../core/extensions/extension-api.js";
import type { PluginServices } from "../../core/extensions/plugin-services.js";
import { RpcError } from "../../core/kernel/rpc-error.js";
import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import { mcpToolEffect } from "./mcp-tool-effect.js";
import { McpConfigFiles, type McpToolSearch } from "./mcp-config-files.js";
import { MCP_LIMITS } from "./mcp-limits.js";
import { McpResultConverter } from "./mcp-result-converter.js";
import { McpSearchTool, type McpToolEntry } from "./mcp-search.tool.js";
import { McpServerConfigParser, type McpServerConfig, type McpServerSource } from "./mcp-server-config.js";
import { McpServerConnection } from "./mcp-server-connection.js";
import { McpToolNamer } from "./mcp-tool-namer.js";
import type { McpListing, McpPort, McpServerSummary } from "./mcp.port.js";

/** A configured server that cannot start (bad entry): listed as failed, never started. */
interface BrokenEntry {
  name: string;
  source: McpServerSource;
  transport: "stdio" | "http";
  problem: string;
}

/**
 * Every MCP server of the session: starts them in the background, offers their tools to the model
 * (or the one search tool), holds a prompt for servers still starting up to their bound, announces
 * each change as `mcp_server_changed`, and stops them at shutdown.
 */
export class McpServerManager implements McpPort {
  private services: PluginServices | undefined;
  private parser: McpServerConfigParser | undefined;
  private readonly servers = new Map<string, McpServerConnection>();
  private readonly broken = new Map<string, BrokenEntry>();
  private readonly collisions = new Map<string, string[]>();
  private readonly entries = new Map<string, McpToolEntry>();
  private toolSearch: McpToolSearch = "off";
  private searching = false;
  private converter = new McpResultConverter((text) => text);
  private disposed = false;

  constructor(private readonly environment: NodeJS.ProcessEnv = process.env) {}

  /** The plugin's extension half: reads the configuration and starts every server without waiting for any. */
  async attach(api: ZiExtensionApi, services: PluginServices | undefined): Promise<void> {
    if (!services) return;
    this.services = services;
    this.converter = new McpResultConverter((text) => services.secrets.redact(text));
    this.parser = new McpServerConfigParser(this.environment, api.cwd);
    services.tools.beforeModelCall((signal) => this.waitForStarting(signal));
    services.onDispose(() => this.dispose());
    const files = new McpConfigFiles(
      { ziHome: api.ziHome, project: services.project, report: (source, error, outcome) => services.report(source, error, outcome) },
      this.parser,
    );
    const configuration = await files.read();
    this.toolSearch = configuration.toolSearch;
    for (const entry of configuration.servers) {
      if ("config" in entry) this.startServer(entry.config);
      else this.addBroken(entry);
    }
  }

  list(): McpListing {
    const servers: McpServerSummary[] = [];
    for (const entry of this.broken.values()) {
      servers.push({ name: entry.name, source: entry.source, transport: entry.transport, state: "failed", tools: [], error: entry.problem, restarts: 0 });
    }
    for (const server of this.servers.values()) servers.push(this.summary(server));
    return { servers, toolSearch: this.searching };
  }

  add(name: string, raw: Record<string, unknown>): McpServerSummary {
    const parser = this.parser;
    if (!parser || this.disposed) throw new RpcError("operation_failed", "the mcp plugin is not active");
    const entry = parser.parse(name, raw, "runtime");
    if (!entry) throw new RpcError("operation_failed", "a disabled server cannot be added");
    if (!("config" in entry)) throw new RpcError("operation_failed", this.redact(`server "${name}": ${entry.problem}`));
    const previous = this.servers.get(name);
    this.servers.delete(name);
    this.broken.delete(name);
    if (previous) void previous.stop();
    return this.summary(this.startServer(entry.config));
  }

  async remove(name: string): Promise<boolean> {
    const server = this.servers.get(name);
    const broken = this.broken.delete(name);
    if (!server) return broken;
    this.servers.delete(name);
    await server.stop();
    this.publish();
    this.announce(server, undefined);
    return true;
  }

  private startServer(config: McpServerConfig): McpServerConnection {
    for (const value of config.secrets) if (value.length >= MCP_LIMITS.minSecretChars) this.services?.secrets.add(value);
    const server: McpServerConnection = new McpServerConnection(config, {
      changed: (changed) => this.changed(changed),
      logLine: (name, line) => process.stderr.write(`[mcp ${name}] ${line}\n`),
      redact: (text) => this.redact(text),
      sandboxed: async (mode, argv, cwd) => {
        if (!this.services) throw new Error("the sandbox is not available to this MCP plugin");
        return this.services.session.sandbox.commandIn(mode, argv, cwd);
      },
    });
    this.servers.set(config.name, server);
    void server.start();
    return server;
  }

  private addBroken(entry: BrokenEntry): void {
    this.broken.set(entry.name, entry);
    process.stderr.write(`zi: MCP server ${entry.name} (${entry.source}) was not started: ${entry.problem}\n`);
    void this.services?.session.announce({ type: "mcp_server_changed", server: entry.name, state: "failed", tools: 0, error: entry.problem });
  }

  private changed(server: McpServerConnection): void {
    // A server replaced by mcp.add or removed reports nothing more.
    if (this.disposed || this.servers.get(server.name) !== server) return;
    this.publish();
    if (server.state === "failed") process.stderr.write(`zi: MCP server ${server.name} failed: ${server.error}\n`);
    this.announce(server, undefined);
  }

  private announce(server: McpServerConnection, note: string | undefined): void {
    if (this.disposed) return;
    const removed = this.servers.get(server.name) !== server;
    const event: SessionEventOf<"mcp_server_changed"> = {
      type: "mcp_server_changed",
      server: server.name,
      state: removed ? "stopped" : server.state,
      tools: removed ? 0 : this.offeredTools(server.name).length,
    };
    if (server.error !== undefined && !removed) event.error = server.error;
    const collisions = this.collisions.get(server.name);
    const notes = [note, collisions?.length ? `left out: ${collisions.join(", ")}` : undefined].filter(Boolean);
    if (notes.length > 0) event.note = notes.join("; ");
    void this.services?.session.announce(event);
  }

  /** Recomputes what the model is offered: every server's tools under Zi's names, or the one search tool. */
  private publish(): void {
    const services = this.services;
    if (!services) return;
    this.entries.clear();
    const previousCollisions = new Map(this.collisions);
    this.collisions.clear();
    const owners = new Map<string, string>();
    for (const server of this.servers.values()) {
      if (server.state !== "ready" && !server.restartable) continue;
      for (const tool of server.tools) {
        const refusal = McpServerManager.schemaRefusal(tool);
        if (refusal !== undefined) {
          this.collide(server.name, `${tool.name} (${refusal})`);
          continue;
        }
        const name = McpToolNamer.name(server.name, tool.name);
        const owner = owners.get(name);
        if (owner !== undefined) {
          this.collide(server.name, `${tool.name} (as ${name}, taken by ${owner})`);
          continue;
        }
        owners.set(name, `${server.name}/${tool.name}`);
        this.entries.set(name, { name, server: server.name, tool });
      }
    }
    const all = [...this.entries.values()];
    this.searching = this.toolSearch === "on" || (this.toolSearch === "auto" && all.length > MCP_LIMITS.searchThresholdTools);
    const tools = this.searching
      ? all.length > 0
        ? [new McpSearchTool(all, (entry, args, context) => this.execute(entry, args, context))]
        : []
      : all.map((entry) => this.agentTool(entry));
    for (const name of services.tools.replace(tools)) {
      const entry = this.entries.get(name);
      if (!entry) continue;
      this.entries.delete(name);
      this.collide(entry.server, `${entry.tool.name} (as ${name}, taken by another extension's tool)`);
    }
    for (const [server, names] of this.collisions) {
      if (previousCollisions.get(server)?.join("\n") !== names.join("\n")) {
        process.stderr.write(`zi: MCP server ${server}: tools left out: ${names.join(", ")}\n`);
      }
    }
  }

  private collide(server: string, what: string): void {
    const list = this.collisions.get(server) ?? [];
    list.push(what);
    this.collisions.set(server, list);
  }

  private agentTool(entry: McpToolEntry): AgentTool {
    return {
      name: entry.name,
      description: McpServerManager.description(entry.tool),
      parameters: McpServerManager.schema(entry.tool),
      execute: (args, context) => this.execute(entry, args, context),
      declaration: { effect: mcpToolEffect(entry.tool), describe: () => ({ title: entry.tool.annotations?.title ?? entry.tool.title ?? entry.name, paths: [] }) },
    };
  }

  private async execute(entry: McpToolEntry, args: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const server = this.servers.get(entry.server);
    if (!server) throw new Error(`MCP server "${entry.server}" was removed`);
    const result = await server.call(entry.tool.name, args, {
      signal: context.signal,
      onProgress: (progress, total, message) => {
        const text = `progress ${progress}${total === undefined ? "" : `/${total}`}${message ? `: ${this.redact(message)}` : ""}`;
        context.onUpdate({ content: [{ type: "text", text }] });
      },
    });
    return this.converter.convert(result);
  }

  /** Servers still starting hold the model call until they are ready or their bound has passed; then it goes on and says so. */
  private async waitForStarting(signal: AbortSignal): Promise<void> {
    // A tools/list_changed that arrived before this call (a tool's own call can trigger one): its tools join now.
    const refreshes = [...this.servers.values()].flatMap((server) => (server.refreshing ? [McpServerManager.race(server.refreshing, server.config.startupTimeoutMs, signal)] : []));
    await Promise.all(refreshes);
    const pending = [...this.servers.values()].filter((server) => server.state === "starting" && !server.skippedByPrompt);
    await Promise.all(
      pending.map(async (server) => {
        const left = server.startedAt + server.config.promptWaitMs - Date.now();
        if (left > 0) await McpServerManager.race(server.settled, left, signal);
        if (server.state !== "starting" || signal.aborted || server.skippedByPrompt) return;
        server.skippedByPrompt = true;
        const note = `the prompt went on without it: still starting after ${server.config.promptWaitMs} ms; its tools join the next model call once it is ready`;
        process.stderr.write(`zi: MCP server ${server.name}: ${note}\n`);
        this.announce(server, note);
      }),
    );
  }

  /** The server's tools the model can reach now (directly, or through `mcp_tools` in the search mode). */
  private offeredTools(server: string): string[] {
    return [...this.entries.values()].filter((entry) => entry.server === server).map((entry) => entry.name);
  }

  private summary(server: McpServerConnection): McpServerSummary {
    const summary: McpServerSummary = {
      name: server.name,
      source: server.config.source,
      transport: server.config.transport,
      state: server.state,
      tools: this.offeredTools(server.name),
      restarts: server.restarts,
    };
    if (server.error !== undefined) summary.error = server.error;
    const collisions = this.collisions.get(server.name);
    if (collisions?.length) summary.collisions = [...collisions];
    return summary;
  }

  private redact(text: string): string {
    return this.services ? this.services.secrets.redact(text) : text;
  }

  private async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.servers.values()].map((server) => server.stop()));
  }

  private static description(tool: Tool): string {
    const text = tool.description ?? tool.title ?? tool.annotations?.title ?? `The MCP tool ${tool.name}.`;
    return text.length > 8192 ? `${text.slice(0, 8192)}…` : text;
  }

  /**
   * Why a tool's input schema is not offered, or undefined. A schema is outside JSON's reach of Zi's own
   * files: every walker downstream (a provider SDK's serialiser, a validator) recurses, so a schema
   * nested deeper than the bound is refused by an explicit-stack walk before any of them runs, and
   * one larger than the byte bound would cost every model call its size.
   */
  private static schemaRefusal(tool: Tool): string | undefined {
    if (nestsDeeperThan(tool.inputSchema, MCP_LIMITS.maxSchemaDepth)) return `its input schema nests deeper than ${MCP_LIMITS.maxSchemaDepth} levels`;
    if (JSON.stringify(tool.inputSchema ?? {}).length > MCP_LIMITS.maxSchemaBytes) return `its input schema is larger than ${MCP_LIMITS.maxSchemaBytes / 1024} KiB`;
    return undefined;
  }

  /** The server's input schema, passed through; only a missing `type` gets `object` (every provider requires it). */
  private static schema(tool: Tool): Record<string, unknown> {
    const schema = { ...(tool.inputSchema as Record<string, unknown>) };
    if (schema.type === undefined) schema.type = "object";
    return schema;
  }

  private static race(settled: Promise<void>, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      signal.addEventListener("abort", done, { once: true });
      void settled.then(done);
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
    });
  }
}
