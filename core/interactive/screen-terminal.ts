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
 * Type-ahead: keys typed before Zi read the terminal are read first, and keys are held while nothing
 * on screen takes them (holdKeys), then handed on in the order typed (releaseKeys).
 */
export class ScreenTerminal implements Terminal {
  private kitty = false;
  private otherKeys = false;
  private buffer: StdinBuffer | undefined;
  private wasRaw = false;
  private onData: ((data: string) => void) | undefined;
  private onInput: ((data: string) => void) | undefined;
  private onWinch: (() => void) | undefined;
  private queryTimer: NodeJS.Timeout | undefined;
  /** Keys read while held, waiting for releaseKeys; undefined while they go straight on. */
  private held: string[] | undefined;

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
    this.onInput = onInput;
    this.buffer = new StdinBuffer({ timeout: 10 });
    this.buffer.on("data", (sequence) => {
      if (!this.kitty && KITTY_ANSWER.test(sequence)) {
        this.kitty = true;
        setKittyProtocolActive(true);
        this.write("\x1b[>7u");
        return;
      }
      this.deliver(sequence);
    });
    this.buffer.on("paste", (content) => this.deliver(`\x1b[200~${content}\x1b[201~`));
    // What was typed before raw mode waits in the kernel's line discipline, which keeps it across the
    // switch but has already turned each Enter into \n (ICRNL), the editor's Ctrl+J (a new line). It is
    // read in the first poll after reading starts (next tick), so before the second check phase.
    let cooked = !this.wasRaw;
    setImmediate(() => setImmediate(() => (cooked = false)));
    this.onData = (data) => this.buffer?.process(cooked ? data.replace(/\n/g, "\r") : data);
    this.input.on("data", this.onData);
    this.input.resume();
    // Node refreshes the size of process.stdout and process.stderr on SIGWINCH, not of a stream of
    // one's own: the screen's private descriptor is refreshed here (tty.WriteStream caches its size).
    this.onWinch = () => {
      this.output._refreshSize?.();
      onResize();
    };
    process.on("SIGWINCH", this.onWinch);
    // The kernel echoed those keys where the cursor was; pi-tui's first frame takes the cursor for the
    // start of a clean line (a frame begun mid-line wraps and every later frame is off by a row).
    if (!this.wasRaw) this.write("\r\x1b[K");
    this.write("\x1b[?2004h\x1b[?u");
    this.queryTimer = setTimeout(() => {
      if (this.kitty) return;
      this.otherKeys = true;
      this.write("\x1b[>4;2m");
    }, KITTY_QUERY_MS);
  }

  /** Keys wait here from now on, until releaseKeys: nothing on screen takes them yet. */
  holdKeys(): void {
    this.held ??= [];
  }

  /** The keys held, handed on in the order typed; later keys go straight on. */
  releaseKeys(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (let next = held.shift(); next !== undefined; next = held.shift()) {
      this.onInput?.(next);
      // A key handed on may hold the keys again (Enter picking a session): the rest wait again, first.
      const again = this.held as string[] | undefined;
      if (again) return void again.unshift(...held);
    }
  }

  private deliver(sequence: string): void {
    if (this.held) this.held.push(sequence);
    else this.onInput?.(sequence);
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
    this.held = this.onInput = undefined;
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
