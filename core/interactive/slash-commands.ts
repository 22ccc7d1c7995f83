import type { SelectItem, SlashCommand } from "@mariozechner/pi-tui";
import { style } from "./ansi-style.js";
import type { InteractiveSession } from "./interactive-session.js";
import { TreeCommands } from "./tree-commands.js";
import { SANDBOX_MODES, type SandboxMode, type SandboxState } from "../wire/session-types.js";

/** What the person asked the session loop for when a session ends. */
export type SessionEnd = { type: "exit" } | { type: "new" } | { type: "resume" };

interface Builtin {
  description: string;
  argumentHint?: string;
  run(args: string): Promise<void> | void;
}

const LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"];

const SANDBOX_HINTS = new Map<SandboxMode, string>([
  ["read-only", "bash reads, writes nothing"],
  ["workspace-write", "bash writes only the working directory (and tmp)"],
  ["off", "bash runs unsandboxed"],
]);

/**
 * The slash commands: Zi's own, each made of protocol calls, then every command `command.list`
 * names (extensions'), run with `command.invoke`. A name is looked up exactly (a Map).
 */
export class SlashCommands {
  private readonly builtins: ReadonlyMap<string, Builtin>;
  private extensionCommands = new Map<string, string | undefined>();

  constructor(private readonly session: InteractiveSession) {
    const s = session;
    const tree = new TreeCommands(session);
    this.builtins = new Map<string, Builtin>([
      ["model", { description: "choose the model (or /model PROVIDER/ID)", argumentHint: "[PROVIDER/ID]", run: (args) => this.model(args) }],
      ["thinking", { description: "choose the thinking level", argumentHint: "[LEVEL]", run: (args) => this.thinking(args) }],
      ["new", { description: "start a new session", run: () => s.end({ type: "new" }) }],
      ["resume", { description: "continue an earlier session of this directory", run: () => s.end({ type: "resume" }) }],
      ["tree", { description: "the session's branches: go back to any point", run: () => tree.tree() }],
      ["fork", { description: "a new session from before one of your prompts", run: () => tree.fork() }],
      ["rewind", { description: "undo the conversation and/or Zi's file edits back to a point", run: () => tree.rewind() }],
      ["export", { description: "write the session as an HTML page (or /export jsonl)", argumentHint: "[html|jsonl]", run: (args) => tree.export(args) }],
      ["compact", { description: "summarise the older context now (/compact what to keep)", argumentHint: "[INSTRUCTIONS]", run: (args) => this.compact(args) }],
      ["usage", { description: "tokens and cost of this session", run: () => this.usage() }],
      ["permissions", { description: "the permission policy and the sandbox (/permissions ask|allow|deny, /permissions sandbox)", argumentHint: "[DEFAULT|sandbox MODE]", run: (args) => this.permissions(args) }],
      ["mcp", { description: "MCP servers and their state", run: () => this.mcp() }],
      ["help", { description: "commands and keys", run: () => this.help() }],
      ["exit", { description: "leave Zi", run: () => s.end({ type: "exit" }) }],
    ]);
  }

  /** The editor's completion list: built-ins, then the extensions' commands. */
  async completions(): Promise<SlashCommand[]> {
    try {
      const { commands } = await this.session.client.call<{ commands: { name: string; description?: string }[] }>("command.list");
      this.extensionCommands = new Map(commands.map((command) => [command.name, command.description]));
    } catch (error) {
      this.session.say(style.red(`command.list failed: ${(error as Error).message}`));
    }
    const own = [...this.builtins].map(([name, builtin]) => ({ name, description: builtin.description, argumentHint: builtin.argumentHint }));
    const theirs = [...this.extensionCommands].filter(([name]) => !this.builtins.has(name)).map(([name, description]) => ({ name, description }));
    return [...own, ...theirs];
  }

  /** Runs `/name args`; false when no command has that name (the text is then sent as a prompt). */
  async run(line: string): Promise<boolean> {
    const space = line.search(/\s/);
    const name = (space < 0 ? line : line.slice(0, space)).slice(1);
    const args = space < 0 ? "" : line.slice(space + 1).trim();
    const builtin = this.builtins.get(name);
    try {
      if (builtin) await builtin.run(args);
      else if (this.extensionCommands.has(name)) await this.invoke(name, args);
      else {
        this.session.say(style.yellow(`unknown command /${name}: /help lists them`));
      }
    } catch (error) {
      this.session.say(style.red(`/${name}: ${(error as Error).message}`));
    }
    return true;
  }

  /** Said when no model is selected: how to configure one, and the offline models meanwhile. */
  async noModelNotice(): Promise<void> {
    const { models } = await this.session.client.call<{ models: { provider: string; id: string; configured: boolean }[] }>("model.list");
    const configured = models.filter((model) => model.configured && model.provider !== "faux");
    const lines = [style.yellow("No model is selected.")];
    if (configured.length === 0) {
      lines.push(
        "No provider is configured: set a key (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, …),",
        "or write ZI_HOME/auth.json or ZI_HOME/models.json (docs/models.md); then choose with /model.",
      );
    } else {
      lines.push(`${configured.length} configured models: choose one with /model, or set defaultModel in settings.json.`);
    }
    lines.push(`Offline, meanwhile: ${style.bold("/model faux/echo")} (answers "Echo: …").`);
    this.session.say(lines.join("\n"));
  }

  private async model(args: string): Promise<void> {
    if (args !== "") return this.selectModel(args);
    const { models } = await this.session.client.call<{ models: { provider: string; id: string; name: string; configured: boolean }[] }>("model.list");
    const items = models
      .filter((model) => model.configured)
      .map((model): SelectItem => ({ value: `${model.provider}/${model.id}`, label: `${model.provider}/${model.id}`, description: model.name }));
    this.pick(items, (value) => this.selectModel(value));
  }

  private async selectModel(value: string): Promise<void> {
    const slash = value.indexOf("/");
    if (slash <= 0) throw new Error("takes PROVIDER/ID, e.g. /model faux/echo");
    const { model } = await this.session.client.call("model.select", { provider: value.slice(0, slash), id: value.slice(slash + 1) });
    this.session.say(style.gray(`model: ${model.provider}/${model.id}`));
    await this.session.refreshState();
  }

  private async thinking(args: string): Promise<void> {
    if (args !== "") return this.selectThinking(args);
    const { levels, current } = await this.session.client.call<{ levels: string[]; current: string }>("thinking.list");
    this.pick(
      levels.map((level) => ({ value: level, label: level, description: level === current ? "current" : undefined })),
      (level) => this.selectThinking(level),
    );
  }

  private async selectThinking(level: string): Promise<void> {
    if (!LEVELS.includes(level)) throw new Error(`takes one of ${LEVELS.join(", ")}`);
    const { effective } = await this.session.client.call("thinking.select", { level });
    this.session.say(style.gray(`thinking: ${effective}${effective === level ? "" : ` (the model's nearest to ${level})`}`));
  }

  /** `session.compact`: the compaction's start and end show as notices from their events; the result says how much it replaced. */
  private async compact(instructions: string): Promise<void> {
    const { tokensBefore } = await this.session.client.call<{ tokensBefore: number }>("session.compact", instructions === "" ? {} : { instructions });
    this.session.say(style.gray(`the context was ${tokensBefore} tokens; the model now reads a summary of the older part`));
    await this.session.refreshState();
  }

  private async usage(): Promise<void> {
    const usage = await this.session.client.call("session.get_usage");
    const line = (label: string, t: { input: number; output: number; cacheRead: number; totalTokens: number; cost: number; modelCalls: number; toolCalls: number }) =>
      `${label.padEnd(9)} ${t.totalTokens} tokens (in ${t.input}, out ${t.output}, cache ${t.cacheRead}) • $${t.cost.toFixed(4)} • ${t.modelCalls} model calls, ${t.toolCalls} tool calls`;
    const lines = [line("session", usage.session)];
    if (usage.run) lines.push(line("last run", usage.run));
    if (usage.children.tasks > 0) lines.push(line("subagents", usage.children));
    this.session.say(lines.join("\n"));
  }

  /** The permission default (`permission.set_policy`) and where bash runs (`permission.set_sandbox`); bare: both shown. */
  private async permissions(args: string): Promise<void> {
    const [first, mode] = args.split(/\s+/);
    if (first === "sandbox") return mode ? this.setSandbox(mode) : this.pickSandbox();
    if (args !== "") {
      if (!["allow", "ask", "deny"].includes(args)) throw new Error("takes allow, ask or deny, or sandbox [MODE]");
      const { policy } = await this.session.client.call("permission.set_policy", { default: args });
      this.session.say(style.gray(`permissions: default ${policy.default}`));
      return;
    }
    const [{ requests }, state] = await Promise.all([
      this.session.client.call<{ requests: unknown[] }>("permission.list"),
      this.session.client.call<{ sandbox: SandboxState }>("session.get_state"),
    ]);
    this.session.say(
      [
        `${requests.length} request(s) waiting. /permissions ask|allow|deny sets the default for this session;`,
        "rules live under \"permissions\" in settings.json (docs/permissions.md).",
        `sandbox: ${SlashCommands.sandboxLine(state.sandbox)}`,
        `/permissions sandbox [${SANDBOX_MODES.join("|")}] sets where bash runs (docs/sandbox.md).`,
      ].join("\n"),
    );
  }

  private async pickSandbox(): Promise<void> {
    const { sandbox } = await this.session.client.call<{ sandbox: SandboxState }>("session.get_state");
    const items = SANDBOX_MODES.map((mode) => ({ value: mode, label: mode, description: mode === sandbox.mode ? "current" : SANDBOX_HINTS.get(mode) }));
    this.session.pick(items, (mode) => this.setSandbox(mode), SANDBOX_MODES.indexOf(sandbox.mode));
  }

  /** The network setting in force stays; the writable roots are the settings'. */
  private async setSandbox(mode: string): Promise<void> {
    if (!(SANDBOX_MODES as readonly string[]).includes(mode)) throw new Error(`sandbox takes ${SANDBOX_MODES.join(", ")}`);
    const { sandbox: current } = await this.session.client.call<{ sandbox: SandboxState }>("session.get_state");
    const { sandbox } = await this.session.client.call<{ sandbox: SandboxState }>("permission.set_sandbox", { mode, network: current.network });
    this.session.say(style.gray(`sandbox: ${SlashCommands.sandboxLine(sandbox)}`));
  }

  private static sandboxLine(sandbox: SandboxState): string {
    const support = sandbox.support.status === "unavailable" ? style.yellow(` • unavailable here: ${sandbox.support.reason}`) : sandbox.support.status === "available" ? ` • ${sandbox.support.base}` : "";
    const roots = sandbox.writableRoots.length > 0 ? ` • also writable: ${sandbox.writableRoots.join(", ")}` : "";
    return `${style.bold(sandbox.mode)} • network ${sandbox.network ? "on" : "off"}${roots}${support}`;
  }

  private async mcp(): Promise<void> {
    const { servers } = await this.session.client.call<{ servers: { name: string; state: string; tools: number; error?: string; source: string }[] }>("mcp.list");
    if (servers.length === 0) return this.session.say("No MCP servers: add them in ZI_HOME/mcp.json or .zi/mcp.json (docs/mcp.md).");
    this.session.say(servers.map((s) => `${s.name.padEnd(16)} ${s.state.padEnd(8)} ${s.tools} tools  ${style.gray(s.source)}${s.error ? style.red(`  ${s.error}`) : ""}`).join("\n"));
  }

  private help(): void {
    const width = Math.max(...[...this.builtins.keys(), ...this.extensionCommands.keys()].map((name) => name.length)) + 2;
    const lines = [...this.builtins].map(([name, builtin]) => `/${name.padEnd(width)}${builtin.description}`);
    for (const [name, description] of this.extensionCommands) if (!this.builtins.has(name)) lines.push(`/${name.padEnd(width)}${description ?? ""} ${style.gray("(extension)")}`);
    lines.push(
      "",
      "Enter send (steers a running reply)  Alt+Enter queue a follow-up  Shift+Enter new line",
      "Esc interrupt  Ctrl+C clear / twice exit  Ctrl+T thinking  Up history  @ file path",
    );
    this.session.say(lines.join("\n"));
  }

  private async invoke(name: string, args: string): Promise<void> {
    const { message } = await this.session.client.call<{ message?: string }>("command.invoke", { name, arguments: args });
    if (message) this.session.say(message);
  }

  private pick(items: SelectItem[], chosen: (value: string) => Promise<void>): void {
    this.session.pick(items, chosen);
  }
}
