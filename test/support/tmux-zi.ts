import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZI_BIN } from "./zi-process.js";

const POLL_MS = 25;
const DEADLINE_MS = 20000;
let serial = 0;

/** What a screen is waited for: text on it, a pattern, or a predicate. */
type Expected = string | RegExp | ((screen: string) => boolean);

export interface TmuxZiOptions {
  args: string[];
  /** ZI_HOME's settings.json. */
  settings?: object;
  /** `faux/scripted`'s responses (passed as --faux-script). */
  fauxScript?: object[];
  width?: number;
  height?: number;
  /** More environment for zi (its environment is otherwise only PATH, ZI_HOME, HOME and TERM). */
  env?: Record<string, string>;
}

/**
 * The built `zi` in a real terminal: a tmux server of its own (a unique -L socket per instance), a
 * fresh ZI_HOME, keys sent with send-keys and the screen read with capture-pane. Waiting is polling
 * the screen for expected text until a deadline, never a fixed sleep. The exit status is written to a
 * file by the pane's shell once zi ends.
 */
export class TmuxZi {
  private static readonly live = new Set<TmuxZi>();
  readonly dir: string;
  readonly home: string;
  readonly cwd: string;
  private readonly socket = `zi-test-${process.pid}-${++serial}`;
  private readonly statusFile: string;

  constructor(options: TmuxZiOptions & { reuse?: TmuxZi }) {
    // Another instance's directory and ZI_HOME: a later run of zi on the same machine.
    this.dir = options.reuse?.dir ?? mkdtempSync(join(tmpdir(), "zi-tmux-"));
    this.home = join(this.dir, "home");
    this.cwd = this.dir;
    this.statusFile = join(this.dir, `exit-status-${this.socket}`);
    execFileSync("mkdir", ["-p", this.home]);
    if (options.settings) writeFileSync(join(this.home, "settings.json"), JSON.stringify(options.settings));
    const args = [...options.args];
    if (options.fauxScript) {
      const script = join(this.dir, "script.json");
      writeFileSync(script, JSON.stringify({ responses: options.fauxScript }));
      args.push("--faux-script", script);
    }
    const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
    // A clean environment: no provider key of the test runner's reaches zi.
    const extra = Object.entries(options.env ?? {}).map(([name, value]) => `${name}=${value}`);
    const env = [`PATH=${process.env.PATH ?? ""}`, `ZI_HOME=${this.home}`, `HOME=${this.dir}`, "TERM=xterm-256color", ...extra].map(quote).join(" ");
    const command = `env -i ${env} ${quote(process.execPath)} ${quote(ZI_BIN)} ${args.map(quote).join(" ")}; echo $? > ${quote(this.statusFile)}; sleep 3600`;
    execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", "new-session", "-d", "-x", String(options.width ?? 100), "-y", String(options.height ?? 30), "-c", this.cwd, command]);
    TmuxZi.live.add(this);
  }

  /** A screen predicate: the footer's line names `model` (beside the thinking level, at its end). */
  static footerNames(model: string): (screen: string) => boolean {
    return (screen) => screen.split("\n").some((line) => /thinking \w+\s*$/.test(line) && line.includes(model));
  }

  /** The highlighted row of a list on the screen (pi-tui's `→ ` prefix), or "". */
  static selectedRow(screen: string): string {
    return screen.split("\n").find((line) => line.includes("→ ")) ?? "";
  }

  /** Every instance not yet killed, killed (a spec's afterEach: no terminal outlives a failed test). */
  static killAll(): void {
    for (const zi of TmuxZi.live) zi.kill();
  }

  /** Keys as tmux names them (`Enter`, `Escape`, `C-c`, `M-Enter`) or literal text with `literal`. */
  keys(...keys: string[]): void {
    execFileSync("tmux", ["-L", this.socket, "send-keys", ...keys]);
  }

  type(text: string): void {
    execFileSync("tmux", ["-L", this.socket, "send-keys", "-l", text]);
  }

  /** `text` typed, then Enter. */
  submit(text: string): void {
    this.type(text);
    this.keys("Enter");
  }

  /** The visible screen as text; with `escapes`, with its colours (SGR sequences) too. */
  screen(escapes = false): string {
    return execFileSync("tmux", ["-L", this.socket, "capture-pane", "-p", ...(escapes ? ["-e"] : [])], { encoding: "utf8" });
  }

  resize(width: number, height: number): void {
    execFileSync("tmux", ["-L", this.socket, "resize-window", "-x", String(width), "-y", String(height)]);
  }

  /** Resolves with the screen once `expected` is on it; throws with the screen at the deadline. */
  async waitFor(expected: Expected, deadlineMs = DEADLINE_MS): Promise<string> {
    const test = TmuxZi.matcher(expected);
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const screen = this.screen();
      if (test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(expected)}; the screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /**
   * As waitFor, but only on a whole frame: tmux 3.3 ignores synchronized output (mode 2026), so a
   * capture can fall between the chunks of one redraw, its top rows new and its bottom rows old. A
   * screen that meets `expected` and is unchanged one poll later is a finished frame; use this before
   * asserting that something is gone.
   */
  async waitForSettled(expected: Expected, deadlineMs = DEADLINE_MS): Promise<string> {
    const test = TmuxZi.matcher(expected);
    let previous: string | undefined;
    return this.waitFor((screen) => {
      const settled = screen === previous && test(screen);
      previous = screen;
      return settled;
    }, deadlineMs);
  }

  /** zi's exit status, once it has exited. */
  async exitStatus(deadlineMs = DEADLINE_MS): Promise<number> {
    const deadline = Date.now() + deadlineMs;
    while (!existsSync(this.statusFile) || readFileSync(this.statusFile, "utf8").trim() === "") {
      if (Date.now() > deadline) throw new Error(`zi did not exit; the screen:\n${this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return Number(readFileSync(this.statusFile, "utf8").trim());
  }

  private static matcher(expected: Expected): (screen: string) => boolean {
    if (typeof expected === "function") return expected;
    return typeof expected === "string" ? (screen) => screen.includes(expected) : (screen) => expected.test(screen);
  }

  kill(): void {
    TmuxZi.live.delete(this);
    try {
      execFileSync("tmux", ["-L", this.socket, "kill-server"], { stdio: "ignore" });
    } catch {
      // already gone
    }
  }
}
