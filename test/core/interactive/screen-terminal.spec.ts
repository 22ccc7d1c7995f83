import { describe, expect, it } from "@jest/globals";
import { EventEmitter } from "node:events";
import { ScreenTerminal } from "../../../core/interactive/screen-terminal.js";

/** A tty input stream that is fed by hand; `isRaw` as the terminal was before zi started. */
class FakeInput extends EventEmitter {
  constructor(public isRaw = false) {
    super();
  }
  setRawMode(raw: boolean): this {
    this.isRaw = raw;
    return this;
  }
  setEncoding(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
}

function terminal(wasRaw = false): { screen: ScreenTerminal; input: FakeInput; keys: string[]; written: string[] } {
  const input = new FakeInput(wasRaw);
  const written: string[] = [];
  const output = { write: (text: string) => (written.push(text), true), columns: 80, rows: 24 } as unknown as NodeJS.WritableStream;
  const screen = new ScreenTerminal(output, (text) => text, input as unknown as NodeJS.ReadStream);
  const keys: string[] = [];
  return { screen, input, keys, written };
}

const start = (t: ReturnType<typeof terminal>) => t.screen.start((key) => t.keys.push(key), () => undefined);
/** Past the window in which the keys typed before raw mode are read (two check phases). */
const pastBacklog = () => new Promise((resolve) => setImmediate(() => setImmediate(() => setImmediate(resolve))));

describe("ScreenTerminal's type-ahead", () => {
  it("reads an Enter typed before raw mode (the kernel's \\n) as Enter; a \\n typed later stays Ctrl+J", async () => {
    const t = terminal();
    start(t);
    // The kernel's backlog comes in the first poll after reading starts.
    await new Promise((resolve) => process.nextTick(resolve));
    t.input.emit("data", "hi\nthere");
    await pastBacklog();
    t.input.emit("data", "\n");
    expect(t.keys).toEqual(["h", "i", "\r", "t", "h", "e", "r", "e", "\n"]);
    t.screen.stop();
  });

  it("leaves \\n alone on a terminal that was raw already (no line discipline translated it)", async () => {
    const t = terminal(true);
    start(t);
    t.input.emit("data", "a\n");
    expect(t.keys).toEqual(["a", "\n"]);
    t.screen.stop();
  });

  it("starts its first frame at the start of a cleared line (after the kernel's echo of early keys)", () => {
    const t = terminal();
    start(t);
    expect(t.written[0]).toBe("\r\x1b[K");
    t.screen.stop();
  });

  it("holds keys until released, then hands them on in order; later keys go straight on", async () => {
    const t = terminal();
    t.screen.holdKeys();
    start(t);
    await pastBacklog();
    t.input.emit("data", "ab");
    expect(t.keys).toEqual([]);
    t.screen.releaseKeys();
    t.input.emit("data", "c");
    expect(t.keys).toEqual(["a", "b", "c"]);
    t.screen.stop();
  });

  it("a key handed on that holds the keys again (Enter picking a session) keeps the rest held, first in line", async () => {
    const t = terminal();
    t.screen.holdKeys();
    t.screen.start((key) => {
      t.keys.push(key);
      if (key === "\r") t.screen.holdKeys();
    }, () => undefined);
    await pastBacklog();
    t.input.emit("data", "x\ryz");
    t.screen.releaseKeys();
    expect(t.keys).toEqual(["x", "\r"]);
    t.input.emit("data", "w");
    t.screen.releaseKeys();
    expect(t.keys).toEqual(["x", "\r", "y", "z", "w"]);
    t.screen.stop();
  });
});
