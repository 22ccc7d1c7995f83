import { Container, SelectList, Text, TUI } from "@mariozechner/pi-tui";
import { SessionCatalog } from "../journal/session-catalog.js";
import type { ZiOptions } from "../cli/cli-options.js";
import type { ThinkingLevel } from "../wire/session-types.js";
import { ZiPaths } from "../config/zi-paths.js";
import type { FamilyLoader } from "../boot/rpc-application.js";
import type { SessionModule } from "../boot/session-module.js";
import type { Redactor } from "../config/redactor.js";
import { protocolTerminal } from "../kernel/stdout-guard.js";
import { SHUTDOWN_BOUNDS, within, type ProcessShell } from "../shell/process-shell.js";
import { codeHighlighter, selectListTheme, style } from "./ansi-style.js";
import { InProcessClient } from "./in-process-client.js";
import { InteractiveSession, type TypeAhead } from "./interactive-session.js";
import { latestSessionFile } from "./latest-session.js";
import { replayTranscript } from "./transcript-replay.js";
import { ScreenTerminal } from "./screen-terminal.js";
import type { SessionEnd } from "./slash-commands.js";

/** How many of this directory's sessions `--resume` offers, newest first. */
const PICKER_SESSIONS = 50;

/** What the interactive mode takes from the process shell (core/shell/process-shell.ts). */
export type InteractiveShell = Pick<ProcessShell, "onShutdown" | "adopt"> & { redactor: Pick<Redactor, "redact"> };

/**
 * `zi` on a terminal: pi-tui's differential renderer on Zi's stdout, and one session after another
 * (`/new`, `/resume`), each served by Zi's own RPC application in process (InProcessClient): the UI
 * does nothing a protocol client could not do. stdout carries only the screen; while the screen is
 * up, whatever Zi or an extension writes to a terminal stderr is shown in the transcript instead of
 * being drawn over it.
 */
export class InteractiveMain {
  private readonly tui: TUI;
  private readonly terminal: ScreenTerminal;
  private readonly header = new Text("", 1, 0);
  /** The one place sessions are listed (session.list's catalog): --continue, --resume and /resume read it. */
  private readonly catalog: SessionCatalog;
  /** The model and thinking level a `/new` session starts with: the last session's. */
  private carried: { model?: { provider: string; id: string }; thinking?: ThinkingLevel } = {};
  /** The session on screen, where stderr lines go. */
  private current: InteractiveSession | undefined;
  /** What the last session was typed ahead and did not send (it ended on `/new` typed before): the next one's. */
  private typeAhead: TypeAhead | undefined;

  constructor(
    private readonly options: ZiOptions,
    private readonly loadFamilies: FamilyLoader,
    private readonly createModule: (options: ZiOptions) => Promise<SessionModule>,
    private readonly log: (message: string) => void,
    private readonly version: string,
    private readonly shell: InteractiveShell,
  ) {
    const screen = protocolTerminal();
    if (!screen) throw new Error("the interactive mode needs a terminal on stdout");
    // The screen is scrubbed of known secrets as RPC frames are.
    this.terminal = new ScreenTerminal(screen, (text) => shell.redactor.redact(text));
    this.tui = new TUI(this.terminal);
    const paths = new ZiPaths({ env: process.env, cwd: process.cwd() });
    this.catalog = new SessionCatalog(paths.sessionsDir, paths.sessionIndexFile);
  }

  async run(): Promise<number> {
    const cwd = process.cwd();
    let sessionFile = this.options.sessionFile;
    if (this.options.pick === "continue") sessionFile = await this.latest(cwd);
    this.header.setText(`${style.bold("zi")} ${style.gray(this.version.replace(/^zi /, ""))}  ${style.gray("/help for commands, Ctrl+C twice to exit")}`);
    this.tui.addChild(this.header);
    // Type-ahead: what is typed before an editor or a list is on screen waits for it (ScreenTerminal).
    this.terminal.holdKeys();
    this.tui.start();
    codeHighlighter.load();
    let signalCode: number | undefined;
    let stopSession: ((end: SessionEnd) => void) | undefined;
    // A signal (SIGTERM, SIGHUP; Ctrl+C is a key here) or a fatal error ends the session in order.
    this.shell.onShutdown((code) => {
      signalCode ??= code;
      stopSession?.({ type: "exit" });
    });
    const restoreStderr = this.captureStderr();
    let first = true;
    let pick = this.options.pick === "resume";
    try {
      for (;;) {
        if (pick) {
          const chosen = await this.choose(cwd);
          if (chosen === "cancel") break;
          sessionFile = chosen;
          pick = false;
        }
        const end = await this.session(sessionFile, first, (stop) => (stopSession = stop));
        first = false;
        if (end.type === "exit" || signalCode !== undefined) break;
        sessionFile = undefined;
        pick = end.type === "resume";
      }
    } finally {
      restoreStderr();
      this.tui.stop();
    }
    return signalCode ?? 0;
  }

  /** One session on screen until it ends; the module is disposed before the next one starts. */
  private async session(sessionFile: string | undefined, first: boolean, onStop: (stop: (end: SessionEnd) => void) => void): Promise<SessionEnd> {
    const options: ZiOptions = { ...this.options, sessionFile, noSession: sessionFile === undefined ? this.options.noSession : false };
    let module: SessionModule;
    try {
      module = await this.createModule(options);
    } catch (error) {
      this.tui.addChild(new Text(style.red(`zi: cannot start: ${(error as Error).message}`), 1, 0));
      this.tui.requestRender();
      return { type: "exit" };
    }
    const forget = this.shell.adopt(module);
    const client = new InProcessClient(module, this.loadFamilies, (message) => this.log(message));
    const view = new InteractiveSession(this.tui, client, process.cwd());
    if (this.typeAhead) view.carry(this.typeAhead);
    this.current = view;
    onStop((end) => view.end(end));
    const screen = new Container();
    for (const component of view.components) screen.addChild(component);
    this.tui.addChild(screen);
    // The editor takes keys from now on, the held ones first; what is sent waits for view.start.
    this.tui.setFocus(view.editor);
    this.terminal.releaseKeys();
    this.tui.requestRender();
    let end: SessionEnd = { type: "exit" };
    try {
      await client.ready;
      await module.restoreModel().catch((error) => view.say(style.red(`the session's model: ${(error as Error).message}`)));
      // The first session takes --model and --thinking; a /new session keeps what the last one used.
      const carried = first ? { model: this.options.model, thinking: this.options.thinking } : sessionFile ? {} : this.carried;
      if (carried.model) await client.call("model.select", carried.model).catch((error) => view.say(style.red(`--model: ${(error as Error).message}`)));
      if (carried.thinking) await client.call("thinking.select", { level: carried.thinking }).catch(() => undefined);
      if (sessionFile) await replayTranscript(client, view.chat);
      await view.start(first ? this.options.prompt : undefined);
      end = await view.ended;
      const state = await client.call("session.get_state").catch(() => undefined);
      if (state?.model?.type === "selected") this.carried = { model: { provider: state.model.provider, id: state.model.id }, thinking: state.thinkingLevel };
      return end;
    } finally {
      // Keys typed from here on are the next session's (or the picker's).
      this.terminal.holdKeys();
      this.typeAhead = view.typeAhead();
      view.dispose();
      this.current = undefined;
      // On exit the transcript stays on the terminal, as a shell's output does; a new session starts clean.
      if (end.type !== "exit") this.tui.removeChild(screen);
      this.tui.requestRender();
      await client.call("session.interrupt").catch(() => undefined);
      await within(
        client.close().then(() => module.dispose()).catch((error) => this.log(`zi: dispose failed: ${(error as Error).message}`)),
        SHUTDOWN_BOUNDS.disposeMs,
      );
      forget();
    }
  }

  private async latest(cwd: string): Promise<string | undefined> {
    const found = await latestSessionFile(this.catalog, cwd);
    if (!found) this.log("zi: no earlier session in this directory: starting a new one");
    return found;
  }

  /** `--resume` and `/resume`: the sessions of this directory, newest first; Esc starts a new one. */
  private async choose(cwd: string): Promise<string | undefined | "cancel"> {
    const { sessions } = await this.catalog.list(cwd, 0, PICKER_SESSIONS);
    if (sessions.length === 0) return undefined;
    const list = new SelectList(
      sessions.map((session) => ({ value: session.path, label: session.title ?? "(no prompt)", description: session.modified.replace("T", " ").slice(0, 16) })),
      12,
      selectListTheme,
    );
    const title = new Text(style.bold("Continue which session? (Enter picks, Esc starts a new one)"), 1, 0);
    this.tui.addChild(title);
    this.tui.addChild(list);
    this.tui.setFocus(list);
    // The keys after the one that picks are the session's: held again at once (the held ones are handed on synchronously).
    const picked = new Promise<string | undefined>((resolve) => {
      list.onSelect = (item) => (this.terminal.holdKeys(), resolve(item.value));
      list.onCancel = () => (this.terminal.holdKeys(), resolve(undefined));
    });
    this.terminal.releaseKeys();
    this.tui.requestRender();
    const path = await picked;
    this.tui.removeChild(title);
    this.tui.removeChild(list);
    return path;
  }

  /** A terminal stderr is the screen too: its lines go into the transcript while the screen is up. */
  private captureStderr(): () => void {
    if (!process.stderr.isTTY) return () => {};
    const original = process.stderr.write;
    let pending = "";
    process.stderr.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      pending += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line.trim() === "") continue;
        const text = style.gray(this.shell.redactor.redact(line));
        if (this.current) this.current.say(text);
        else this.tui.addChild(new Text(text, 1, 0));
      }
      if (lines.length > 0) this.tui.requestRender();
      const done = typeof encoding === "function" ? encoding : callback;
      if (typeof done === "function") queueMicrotask(() => (done as () => void)());
      return true;
    }) as typeof process.stderr.write;
    return () => {
      process.stderr.write = original;
      if (pending) original.call(process.stderr, `${pending}\n`);
    };
  }
}
