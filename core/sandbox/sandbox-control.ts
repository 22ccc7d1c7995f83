import type { SandboxState, SandboxSupport } from "../wire/session-types.js";
import { bwrapArguments } from "./bwrap-arguments.js";
import { protectedPlace, writeRefusal } from "./sandbox-places.js";
import type { SandboxLayer } from "./sandbox-settings.js";
import { BWRAP, checkSandboxSupport } from "./sandbox-support.js";

/** What a tool that starts processes asks the sandbox: the argv to spawn for its own argv. */
export interface ToolSandbox {
  /** `argv` wrapped in the sandbox of the current mode (unchanged when `off`); throws, naming cause and fix, when it cannot start. */
  command(argv: readonly string[], cwd: string): Promise<string[]>;
  /**
   * Why the current mode refuses a write Zi's own process would make (an edit tool's, at `paths`, real
   * paths), or undefined: the same writable roots and read-only places a sandboxed command gets.
   */
  writeRefusal(paths: readonly string[], cwd: string): string | undefined;
}

/**
 * The session's sandbox: the settings' choice, the client's run-time layer (`permission.set_sandbox`)
 * over it, and whether bubblewrap can start here (checked once, lazily, then cached). Every change is
 * pushed to the session state, so `session.get_state` shows what the next call gets.
 */
export class SandboxControl implements ToolSandbox {
  private runtime: SandboxLayer = {};
  private support: SandboxSupport = { status: "unchecked" };
  private checking: Promise<SandboxSupport> | undefined;

  constructor(
    private readonly settings: Required<SandboxLayer>,
    /** Paths kept read-only inside writable roots (the user's settings). */
    private readonly protectedPaths: readonly string[],
    private readonly check: () => Promise<SandboxSupport> = checkSandboxSupport,
  ) {}

  private readonly observers = new Set<(state: SandboxState) => void>();

  /** Sees the state now and after every change (a session keeps its state current with it); returns the removal. */
  observe(observer: (state: SandboxState) => void): () => void {
    this.observers.add(observer);
    observer(this.state());
    return () => void this.observers.delete(observer);
  }

  private publish(state: SandboxState): void {
    for (const observer of this.observers) observer(state);
  }

  state(): SandboxState {
    const mode = this.runtime.mode ?? this.settings.mode;
    return {
      mode,
      network: this.runtime.network ?? this.settings.network,
      writableRoots: [...(this.runtime.writableRoots ?? this.settings.writableRoots)],
      support: { ...this.support },
    };
  }

  /** The client's layer: replaces the previous one whole; absent fields leave the settings' in force. */
  set(layer: SandboxLayer): SandboxState {
    this.runtime = { ...layer };
    const state = this.state();
    this.publish(state);
    // A sandboxed mode learns at once whether it can start, so the state says so before the first call.
    if (state.mode !== "off") void this.checkSupport();
    return state;
  }

  /** Once `ready` is out: a sandboxed mode checks whether it can start (never delaying the first response). */
  afterReady(): void {
    if (this.state().mode !== "off") void this.checkSupport();
  }

  /** Checks once whether the sandbox can start; cached. */
  checkSupport(): Promise<SandboxSupport> {
    this.checking ??= this.check().then((support) => {
      this.support = support;
      this.publish(this.state());
      return support;
    });
    return this.checking;
  }

  /** A tool's command (bash): nothing of its argv (the model's text) is made visible under the private /tmp. */
  command(argv: readonly string[], cwd: string): Promise<string[]> {
    return this.wrap(this.state().mode, argv, cwd, []);
  }

  writeRefusal(paths: readonly string[], cwd: string): string | undefined {
    return writeRefusal(this.state(), cwd, this.protectedPaths, paths);
  }

  /** The read-only place holding `path` (real) in any mode: a `.git` or `.zi` directory on it, the git or hooks directory of its repository or of the cwd's, or ZI_HOME. */
  protectedPlace(path: string, cwd: string): string | undefined {
    return protectedPlace(path, this.protectedPaths, [cwd, ...this.state().writableRoots]);
  }

  /**
   * `argv` in the sandbox of `mode` (a stdio MCP server's own setting), with the session's network and
   * writable roots; the user wrote this argv (mcp.json), so the paths it names under /tmp stay visible.
   */
  commandIn(mode: SandboxState["mode"], argv: readonly string[], cwd: string): Promise<string[]> {
    return this.wrap(mode, argv, cwd, argv);
  }

  private async wrap(mode: SandboxState["mode"], argv: readonly string[], cwd: string, visible: readonly string[]): Promise<string[]> {
    const state = { ...this.state(), mode };
    if (state.mode === "off") return [...argv];
    const support = await this.checkSupport();
    if (support.status !== "available") {
      const reason = support.status === "unavailable" ? support.reason : "the sandbox was not checked";
      const fix = support.status === "unavailable" ? support.fix : "";
      throw new Error(`The command did not run: the sandbox (mode "${state.mode}") cannot start: ${reason}. To fix: ${fix}.`);
    }
    return [BWRAP, ...bwrapArguments(state, { cwd, protectedPaths: this.protectedPaths, argv: visible }), "--", ...argv];
  }
}
