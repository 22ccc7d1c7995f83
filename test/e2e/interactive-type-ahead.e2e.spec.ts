import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TmuxZi } from "../support/tmux-zi.js";

afterEach(() => TmuxZi.killAll());

/** Stays loading until the file named by ZI_TEST_GATE_FILE exists, then registers the command `gated`. */
const GATED = resolve("test/fixtures/gated.extension.mjs");

/** The editor's text: the lines between the last two rules (the footer follows them). */
function editorText(screen: string): string {
  const lines = screen.split("\n");
  const rules = lines.flatMap((line, index) => (/^─{20,}\s*$/.test(line) ? [index] : []));
  if (rules.length < 2) return "";
  return lines
    .slice(rules[rules.length - 2]! + 1, rules[rules.length - 1])
    .map((line) => line.trim())
    .join("\n");
}

const count = (screen: string, text: string) => screen.split(text).length - 1;

describe("type-ahead: keys typed while zi starts (tmux, faux models)", () => {
  it("keys typed before zi has drawn anything: the Enter among them sends once --model's model is chosen, exactly once; the rest stays in the editor", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/echo"] });
    // At once: zi has not read the terminal yet, so these wait in the kernel's line discipline (cooked mode).
    zi.submit("early words");
    zi.type("and more");
    expect(TmuxZi.footerNames("faux/echo")(zi.screen())).toBe(false);

    const screen = await zi.waitFor((s) => s.includes("Echo: early words") && editorText(s) === "and more");
    // The first frame starts on a line of its own, not after the kernel's echo of the keys.
    expect(screen).toMatch(/^ zi \S+ {2}\/help for commands/m);
    zi.keys("Enter");
    const after = await zi.waitForSettled((s) => s.includes("Echo: and more") && editorText(s) === "");
    expect(count(after, "Echo: early words")).toBe(1);
    expect(after.indexOf("Echo: early words")).toBeLessThan(after.indexOf("Echo: and more"));
  }, 60000);

  it('zi "text": the command line\'s prompt goes first, then what was typed ahead, each once', async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/echo", "first words"] });
    zi.submit("typed words");
    const screen = await zi.waitForSettled((s) => s.includes("Echo: first words") && s.includes("Echo: typed words") && !s.includes("working…"));
    expect(screen).not.toContain("not sent");
    expect(count(screen, "Echo: first words")).toBe(1);
    expect(count(screen, "Echo: typed words")).toBe(1);
    expect(screen.indexOf("Echo: first words")).toBeLessThan(screen.indexOf("Echo: typed words"));
  }, 60000);

  it("keys typed while an extension still loads go into the editor; what is sent waits for the session: the extension's /command runs, then the prompt", async () => {
    const gate = join(mkdtempSync(join(tmpdir(), "zi-gate-")), "release");
    const zi = new TmuxZi({ args: ["--model", "faux/echo", "--extension", GATED], env: { ZI_TEST_GATE_FILE: gate } });
    // Until the gate file exists the extension loads, and the session is not ready: no model chosen yet.
    await zi.waitFor("/help for commands");
    zi.submit("/gated");
    zi.submit("hello");
    // Keys are handled in order: once this shows in the editor, both Enters have been taken.
    zi.type("draft");
    const waiting = await zi.waitFor((s) => editorText(s) === "draft");
    expect(TmuxZi.footerNames("faux/echo")(waiting)).toBe(false);
    writeFileSync(gate, "");
    const screen = await zi.waitForSettled((s) => s.includes("Echo: hello") && editorText(s) === "draft");
    expect(screen).not.toContain("unknown command");
    const lines = screen.split("\n");
    const notice = lines.findIndex((line) => line.trim() === "gated");
    expect(notice).toBeGreaterThan(-1);
    expect(notice).toBeLessThan(lines.findIndex((line) => line.includes("Echo: hello")));
    expect(count(screen, "Echo: hello")).toBe(1);
  }, 60000);
});
