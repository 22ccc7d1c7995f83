import { isAbsolute, resolve } from "node:path";
import { MCP_LIMITS } from "./mcp-limits.js";
import { SANDBOX_MODES, type SandboxMode } from "../../core/wire/session-types.js";

/** Where a server's configuration came from: `ZI_HOME/mcp.json`, the project's `.zi/mcp.json`, or `mcp.add`. */
export type McpServerSource = "global" | "project" | "runtime";

/** One server, validated and with `${VAR}` expanded. Its env and header values are secrets. */
export interface McpServerConfig {
  name: string;
  source: McpServerSource;
  transport: "stdio" | "http";
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** Every env and header value, and every value a `${VAR}` in them expanded to: never shown anywhere. */
  secrets: string[];
  promptWaitMs: number;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** A stdio server run in the bash sandbox in this mode (docs/sandbox.md); absent: as the user. */
  sandbox?: SandboxMode;
}

export type McpServerEntry = { config: McpServerConfig } | { name: string; source: McpServerSource; transport: McpServerConfig["transport"]; problem: string };

const KEYS = new Set(["command", "args", "env", "cwd", "url", "headers", "type", "disabled", "promptWaitMs", "startupTimeoutMs", "toolTimeoutMs", "sandbox"]);
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

class ConfigProblem extends Error {}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads one `mcpServers` entry in the shape Claude Code, Cursor and others use:
 * `{ command, args?, env?, cwd? }` (stdio) or `{ url, headers? }` (Streamable HTTP), plus Zi's optional
 * `promptWaitMs`, `startupTimeoutMs`, `toolTimeoutMs` and `disabled`. `${VAR}` and `${VAR:-default}` are
 * expanded in `env` and `headers` from Zi's environment; an unset variable without a default is a problem.
 */
export class McpServerConfigParser {
  /** Where the entry being built collects its secret values. */
  private secrets: string[] = [];

  constructor(
    private readonly environment: NodeJS.ProcessEnv,
    private readonly cwd: string,
  ) {}

  /** `undefined` for a disabled entry. */
  parse(name: string, raw: unknown, source: McpServerSource): McpServerEntry | undefined {
    try {
      if (!isRecord(raw)) throw new ConfigProblem("must be an object");
      if (raw.disabled === true) return undefined;
      for (const key of Object.keys(raw)) if (!KEYS.has(key)) throw new ConfigProblem(`unknown key "${key}"`);
      return { config: this.build(name, raw, source) };
    } catch (error) {
      if (!(error instanceof ConfigProblem)) throw error;
      // The transport the entry asked for, as far as it says: a `url` without a `command` is HTTP (mcp.list shows it).
      const transport = isRecord(raw) && raw.url !== undefined && raw.command === undefined ? "http" : "stdio";
      return { name, source, transport, problem: `invalid configuration: ${error.message}` };
    }
  }

  private build(name: string, raw: Record<string, unknown>, source: McpServerSource): McpServerConfig {
    const secrets: string[] = [];
    this.secrets = secrets;
    const common = {
      name,
      source,
      secrets,
      promptWaitMs: this.duration(raw, "promptWaitMs", MCP_LIMITS.defaultPromptWaitMs),
      startupTimeoutMs: this.duration(raw, "startupTimeoutMs", MCP_LIMITS.defaultStartupTimeoutMs),
      toolTimeoutMs: this.duration(raw, "toolTimeoutMs", MCP_LIMITS.defaultToolTimeoutMs),
    };
    const hasCommand = raw.command !== undefined;
    const hasUrl = raw.url !== undefined;
    if (hasCommand === hasUrl) throw new ConfigProblem('needs exactly one of "command" (stdio) or "url" (Streamable HTTP)');
    if (raw.type !== undefined && !["stdio", "http", "streamable-http"].includes(String(raw.type))) {
      throw new ConfigProblem(`type "${String(raw.type)}" is not supported (stdio or http)`);
    }
    if (hasUrl) {
      for (const key of ["args", "env", "cwd", "sandbox"]) if (raw[key] !== undefined) throw new ConfigProblem(`"${key}" is for stdio servers`);
      const url = this.string(raw.url, "url");
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new ConfigProblem("url is not a URL");
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ConfigProblem("url must be http or https");
      return { ...common, transport: "http", url, args: [], env: {}, headers: this.expandedMap(raw.headers, "headers") };
    }
    if (raw.headers !== undefined) throw new ConfigProblem('"headers" is for HTTP servers');
    if (raw.sandbox !== undefined && !SANDBOX_MODES.includes(raw.sandbox as SandboxMode)) throw new ConfigProblem(`sandbox must be ${SANDBOX_MODES.join(", ")}`);
    const command = this.string(raw.command, "command");
    if (command === "") throw new ConfigProblem("command is empty");
    const args = raw.args === undefined ? [] : raw.args;
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) throw new ConfigProblem("args must be an array of strings");
    const cwd = raw.cwd === undefined ? undefined : this.string(raw.cwd, "cwd");
    return {
      ...common,
      transport: "stdio",
      command,
      args,
      env: this.expandedMap(raw.env, "env"),
      cwd: cwd === undefined ? undefined : isAbsolute(cwd) ? cwd : resolve(this.cwd, cwd),
      headers: {},
      ...(raw.sandbox === undefined || raw.sandbox === "off" ? {} : { sandbox: raw.sandbox as SandboxMode }),
    };
  }

  private expandedMap(value: unknown, field: string): Record<string, string> {
    if (value === undefined) return {};
    if (!isRecord(value)) throw new ConfigProblem(`${field} must be an object of strings`);
    const result: Record<string, string> = {};
    for (const [key, entry] of Object.entries(value)) {
      if (typeof entry !== "string") throw new ConfigProblem(`${field}.${key} must be a string`);
      result[key] = this.expand(entry, `${field}.${key}`);
      this.secrets.push(result[key]!);
    }
    return result;
  }

  private expand(text: string, field: string): string {
    return text.replace(VARIABLE, (_, variable: string, fallback: string | undefined) => {
      const value = this.environment[variable];
      if (value !== undefined && value !== "") {
        this.secrets.push(value);
        return value;
      }
      if (fallback !== undefined) return fallback;
      throw new ConfigProblem(`${field} uses \${${variable}}, which is not set`);
    });
  }

  private string(value: unknown, field: string): string {
    if (typeof value !== "string") throw new ConfigProblem(`${field} must be a string`);
    return value;
  }

  private duration(raw: Record<string, unknown>, field: string, fallback: number): number {
    const value = raw[field];
    if (value === undefined) return fallback;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MCP_LIMITS.maxToolCallMs) {
      throw new ConfigProblem(`${field} must be an integer number of milliseconds from 0 to ${MCP_LIMITS.maxToolCallMs}`);
    }
    return value;
  }
}
