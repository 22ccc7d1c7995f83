import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { TmuxZi } from "../support/tmux-zi.js";

afterEach(() => TmuxZi.killAll());
const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

describe("zi on a terminal (tmux, 100x30, fresh ZI_HOME)", () => {
  it("zi --model faux/echo: hello and Enter shows the answer and a footer naming the model; /exit ends with status 0", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/echo"] });
    await zi.waitFor(TmuxZi.footerNames("faux/echo"));
    zi.submit("hello");
    const screen = await zi.waitFor("Echo: hello");
    expect(TmuxZi.footerNames("faux/echo")(screen)).toBe(true);
    zi.submit("/exit");
    expect(await zi.exitStatus()).toBe(0);
  }, 60000);

  it('zi "text" opens with that first prompt sent', async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/echo", "first words"] });
    await zi.waitFor("Echo: first words");
    zi.keys("C-c");
    await zi.waitFor("press Ctrl+C again to exit");
    zi.keys("C-c");
    expect(await zi.exitStatus()).toBe(0);
  }, 60000);

  it("with no provider configured says how to configure one and offers the offline models; /model picks one", async () => {
    const zi = new TmuxZi({ args: [] });
    await zi.waitFor("No provider is configured");
    expect(zi.screen()).toContain("/model faux/echo");
    zi.submit("/model faux/echo");
    await zi.waitFor(TmuxZi.footerNames("faux/echo"));
    zi.submit("hi");
    await zi.waitFor("Echo: hi");
  }, 60000);

  it("asks before a tool call: y allows once, n denies, a allows always (the same call then runs unasked)", async () => {
    const zi = new TmuxZi({
      args: ["--model", "faux/scripted"],
      settings: { permissions: { default: "ask" } },
      fauxScript: [bash("touch once.txt"), { text: "first done" }, bash("touch denied.txt"), { text: "second done" }, bash("touch always.txt"), { text: "third done" }, bash("touch always.txt"), { text: "fourth done" }],
    });
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    const ask = async (prompt: string, key: string, done: string) => {
      zi.submit(prompt);
      await zi.waitFor("Allow bash?");
      zi.type(key);
      return zi.waitFor(done);
    };
    await ask("one", "y", "first done");
    expect(existsSync(join(zi.cwd, "once.txt"))).toBe(true);
    const denied = await ask("two", "n", "second done");
    expect(denied).toContain("denied bash");
    expect(existsSync(join(zi.cwd, "denied.txt"))).toBe(false);
    await ask("three", "a", "third done");
    expect(existsSync(join(zi.cwd, "always.txt"))).toBe(true);
    // The session rule answers the same call now: no prompt, the run goes through.
    zi.submit("four");
    await zi.waitFor("fourth done");
  }, 60000);

  it("Esc interrupts a streaming answer", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/scripted"], fauxScript: [{ text: "word ".repeat(400), tokensPerSecond: 20 }, { text: "after the interrupt" }] });
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    zi.submit("go");
    await zi.waitFor("working… (Esc interrupts)");
    zi.keys("Escape");
    await zi.waitFor(/^\s*interrupted\s*$/m);
    await zi.waitFor((screen) => !screen.includes("working…"));
    zi.submit("again");
    await zi.waitFor("after the interrupt");
  }, 60000);

  it("Enter while a run is going on steers it: the steer is delivered and answered in the same run", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/scripted"], fauxScript: [{ text: "streaming ".repeat(60), tokensPerSecond: 60 }, { text: "steered answer" }] });
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    zi.submit("go");
    await zi.waitFor("working… (Esc interrupts)");
    zi.submit("turn left");
    await zi.waitFor("steering: turn left");
    const screen = await zi.waitFor("steered answer");
    expect(screen).toMatch(/turn left/);
  }, 60000);

  it("slash commands: /help lists commands and keys, /thinking sets the level shown in the footer", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/scripted"], fauxScript: [{ text: "x" }] });
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    zi.submit("/help");
    const help = await zi.waitFor("/permissions");
    for (const name of ["/model", "/thinking", "/new", "/resume", "/compact", "/usage", "/mcp", "/exit"]) expect(help).toContain(name);
    zi.submit("/thinking low");
    await zi.waitFor(TmuxZi.footerNames("thinking low"));
  }, 60000);

  it("redraws to a new size: the footer fits the narrower width and the session goes on", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/echo"] });
    await zi.waitFor(TmuxZi.footerNames("faux/echo"));
    zi.submit("before");
    await zi.waitFor("Echo: before");
    zi.resize(60, 20);
    // Redrawn, not merely reflowed by tmux (which cuts the old 100-column rules into 60 + 40): every
    // rule spans exactly the new width, the transcript and the footer are there again.
    const rules = (screen: string) => screen.split("\n").filter((line) => line.includes("─"));
    const narrow = await zi.waitFor(
      (screen) => rules(screen).length === 2 && rules(screen).every((line) => line === "─".repeat(60)) && screen.includes("Echo: before") && TmuxZi.footerNames("faux/echo")(screen),
    );
    expect(narrow.split("\n").every((line) => line.length <= 60)).toBe(true);
    zi.submit("after");
    await zi.waitFor("Echo: after");
  }, 60000);

  it("renders markdown with code highlighted, folds thinking until Ctrl+T, and shows a tool call's title and result", async () => {
    const zi = new TmuxZi({
      args: ["--model", "faux/scripted"],
      settings: { permissions: { default: "allow" } },
      fauxScript: [
        { thinking: "a private plan", toolCalls: [{ name: "bash", arguments: { command: "echo tool-output-here" } }] },
        { text: "# Title\n\n```js\nconst answer = 42;\n```" },
      ],
    });
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    zi.submit("show me");
    const screen = await zi.waitFor("const answer = 42;");
    expect(screen).toMatch(/✓ bash execute .*echo tool-output-here/);
    expect(screen).toContain("tool-output-here");
    expect(screen).toContain("▸ thinking (3 words; Ctrl+T shows it)");
    expect(screen).not.toContain("a private plan");
    // highlight.js's keyword colour (magenta) on `const`, its number colour (yellow) on 42.
    const coloured = zi.screen(true);
    expect(coloured).toMatch(/\x1b\[35mconst/);
    expect(coloured).toMatch(/\x1b\[33m42/);
    zi.keys("C-t");
    await zi.waitFor("a private plan");
  }, 60000);

  it("Alt+Enter while a run is going on queues a follow-up, answered after the run's reply", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/scripted"], fauxScript: [{ text: "busy ".repeat(60), tokensPerSecond: 60 }, { text: "follow-up answered" }] });
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    zi.submit("go");
    await zi.waitFor("working… (Esc interrupts)");
    zi.type("and then this");
    zi.keys("M-Enter");
    await zi.waitFor("queued as a follow-up: and then this");
    await zi.waitFor("follow-up answered");
  }, 60000);

  it("-c continues this directory's latest session (its transcript and model); --resume picks one; /new starts afresh", async () => {
    const first = new TmuxZi({ args: ["--model", "faux/echo"] });
    await first.waitFor(TmuxZi.footerNames("faux/echo"));
    first.submit("remember this");
    await first.waitFor("Echo: remember this");
    first.submit("/exit");
    expect(await first.exitStatus()).toBe(0);
    // Same ZI_HOME and directory as the first run.
    const again = (args: string[]) => new TmuxZi({ args, reuse: first });
    const continued = again(["-c"]);
    const screen = await continued.waitFor((s) => s.includes("Echo: remember this") && TmuxZi.footerNames("faux/echo")(s));
    expect(screen).toContain("remember this");
    continued.submit("/new");
    // A new session, with the model the last one used.
    await continued.waitFor((s) => !s.includes("Echo: remember this") && TmuxZi.footerNames("faux/echo")(s));
    continued.submit("fresh");
    await continued.waitFor("Echo: fresh");
    continued.submit("/exit");
    expect(await continued.exitStatus()).toBe(0);
    const resumed = again(["--resume"]);
    await resumed.waitFor("Continue which session?");
    const list = resumed.screen();
    expect(list).toContain("remember this");
    expect(list).toContain("fresh");
    // Newest first: the /new session is on top; Down then Enter picks the first one.
    resumed.keys("Down");
    resumed.keys("Enter");
    await resumed.waitFor((s) => s.includes("Echo: remember this") && !s.includes("Echo: fresh"));
  }, 90000);

  it("an extension's command is completed after / and runs with command.invoke, its message shown", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/echo", "--extension", resolve("test/fixtures/record-outcome.extension.mjs")] });
    await zi.waitFor(TmuxZi.footerNames("faux/echo"));
    zi.type("/rec");
    await zi.waitFor("records an operation outcome");
    zi.keys("Tab");
    await zi.waitFor((screen) => !screen.includes("records an operation outcome"));
    zi.submit(" first");
    await zi.waitFor("recorded first");
    zi.submit("/help");
    await zi.waitFor(/\/record\s+records an operation outcome \(extension\)/);
  }, 60000);

  it("@ completes a file path of the working directory; Up recalls what was sent", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/echo"] });
    writeFileSync(join(zi.cwd, "notes-file.md"), "x");
    await zi.waitFor(TmuxZi.footerNames("faux/echo"));
    zi.type("read @notes");
    await zi.waitFor("notes-file.md");
    zi.keys("Tab");
    zi.keys("Enter");
    await zi.waitFor("Echo: read @notes-file.md");
    zi.keys("Up");
    await zi.waitFor((screen) => screen.split("\n").filter((line) => line.includes("read @notes-file.md")).length >= 3);
  }, 60000);
});
