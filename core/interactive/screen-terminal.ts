import { setKittyProtocolActive, StdinBuffer, type Terminal } from "@mariozechner/pi-tui";

type TtyOutput = NodeJS.WritableStream & { getWindowSize?: () => [number, number]; columns?: number; rows?: number; _refreshSize?: () => void };

const KITTY_ANSWER = /^\x1b\[\?(\d+)u$/;
/** How long the terminal has to answer the kitty keyboard query before modifyOtherKeys is used instead. */
const KITTY_QUERY_MS = 150;

/**
 * pi-tui's terminal over Zi's own stdout. pi-tui's ProcessTerminal writes to `process.stdout`, which
 * Zi's stdout guard points at stderr; the screen is written to the real stdout (the guard's private
 * descriptor) instead, and its size is read from there, so nothing else can reach the screen.
 * Keys: bracketed paste, and the kitty keyboard protocol where the terminal answers (else xterm's
 * modifyOtherKeys, which tmux forwards), so that Shift+Enter and Alt+Enter are told apart from Enter.
 */
export class ScreenTerminal implements Terminal {
  private kitty = false;
  private otherKeys = false;
  private buffer: StdinBuffer | undefined;
  private wasRaw = false;
  private onData: ((data: string) => void) | undefined;
  private onWinch: (() => void) | undefined;
  private queryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly output: TtyOutput,
    private readonly scrub: (text: string) => string = (text) => text,
    private readonly input: NodeJS.ReadStream = process.stdin,
  ) {}

  get kittyProtocolActive(): boolean {
    return this.kitty;
  }

  start(onInput: (data: string) => void, onResize: () => void): void {
    this.wasRaw = this.input.isRaw ?? false;
    this.input.setRawMode?.(true);
    this.input.setEncoding("utf8");
    this.buffer = new StdinBuffer({ timeout: 10 });
    this.buffer.on("data", (sequence) => {
      if (!this.kitty && KITTY_ANSWER.test(sequence)) {
        this.kitty = true;
        setKittyProtocolActive(true);
        this.write("\x1b[>7u");
        return;
      }
      onInput(sequence);
    });
    this.buffer.on("paste", (content) => onInput(`\x1b[200~${content}\x1b[201~`));
    this.onData = (data) => this.buffer?.process(data);
    this.input.on("data", this.onData);
    this.input.resume();
    // Node refreshes the size of process.stdout and process.stderr on SIGWINCH, not of a stream of
    // one's own: the screen's private descriptor is refreshed here (tty.WriteStream caches its size).
    this.onWinch = () => {
      this.output._refreshSize?.();
      onResize();
    };
    process.on("SIGWINCH", this.onWinch);
    this.write("\x1b[?2004h\x1b[?u");
    this.queryTimer = setTimeout(() => {
      if (this.kitty) return;
      this.otherKeys = true;
      this.write("\x1b[>4;2m");
    }, KITTY_QUERY_MS);
  }

  async drainInput(maxMs = 1000, idleMs = 50): Promise<void> {
    // Key releases the kitty protocol may still send after it is turned off: read and drop them.
    await new Promise<void>((resolve) => {
      let idle: NodeJS.Timeout;
      const finish = () => (clearTimeout(idle), clearTimeout(limit), this.input.off("data", bump), resolve());
      const bump = () => (clearTimeout(idle), (idle = setTimeout(finish, idleMs)));
      const limit = setTimeout(finish, maxMs);
      this.input.on("data", bump);
      bump();
    });
  }

  stop(): void {
    clearTimeout(this.queryTimer);
    this.write(`\x1b[?2004l${this.kitty ? "\x1b[<u" : ""}${this.otherKeys ? "\x1b[>4;0m" : ""}`);
    if (this.kitty) setKittyProtocolActive(false);
    this.kitty = this.otherKeys = false;
    if (this.onData) this.input.off("data", this.onData);
    if (this.onWinch) process.off("SIGWINCH", this.onWinch);
    this.buffer?.destroy();
    this.input.pause();
    this.input.setRawMode?.(this.wasRaw);
  }

  write(data: string): void {
    this.output.write(this.scrub(data));
  }

  get columns(): number {
    return this.output.getWindowSize?.()[0] || this.output.columns || 80;
  }

  get rows(): number {
    return this.output.getWindowSize?.()[1] || this.output.rows || 24;
  }

  moveBy(lines: number): void {
    if (lines !== 0) this.write(lines > 0 ? `\x1b[${lines}B` : `\x1b[${-lines}A`);
  }

  hideCursor(): void {
    this.write("\x1b[?25l");
  }

  showCursor(): void {
    this.write("\x1b[?25h");
  }

  clearLine(): void {
    this.write("\x1b[K");
  }

  clearFromCursor(): void {
    this.write("\x1b[J");
  }

  clearScreen(): void {
    this.write("\x1b[2J\x1b[H");
  }

  setTitle(title: string): void {
    this.write(`\x1b]0;${title}\x07`);
  }

  setProgress(_active: boolean): void {
    // No progress indicator: the footer shows that a run is going on.
  }
}
