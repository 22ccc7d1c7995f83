import { afterEach, describe, expect, it } from "@jest/globals";
import { readFileSync, writeFileSync } from "node:fs";
import { TmuxZi } from "../support/tmux-zi.js";

const DOC = "docs/interactive.md";
const BLOCK = /(<!-- screen: permission -->\n```text\n)([\s\S]*?)(```\n<!-- \/screen -->)/;
/** The version in the header is the package's; the doc's screen holds for any. */
const normalize = (screen: string) =>
  screen
    .split("\n")
    .map((line) => line.trimEnd().replace(/^ zi \d+\.\d+\.\d+\S*/, " zi VERSION"))
    .join("\n")
    .replace(/\n+$/, "\n");

afterEach(() => TmuxZi.killAll());

describe("docs/interactive.md's captured screen", () => {
  it("is what zi draws at 80x24 while a tool call waits for approval (ZI_UPDATE_SCREENS=1 rewrites it)", async () => {
    const zi = new TmuxZi({
      args: ["--model", "faux/scripted"],
      width: 80,
      height: 24,
      settings: { permissions: { default: "ask" } },
      fauxScript: [
        { text: "I'll create it with `touch`.", toolCalls: [{ name: "bash", arguments: { command: "touch notes.txt" } }] },
        { text: "Created **notes.txt**." },
      ],
    });
    // The footer names the model once the session is ready; typing before it would work too (type-ahead), this keeps the run like a person's.
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    zi.submit("make an empty notes.txt");
    const screen = normalize(await zi.waitFor("n deny"));
    const doc = readFileSync(DOC, "utf8");
    if (process.env.ZI_UPDATE_SCREENS === "1") writeFileSync(DOC, doc.replace(BLOCK, (_all, open: string, _old: string, close: string) => `${open}${screen}${close}`));
    else expect(screen).toBe(normalize(BLOCK.exec(doc)?.[2] ?? ""));
    zi.type("y");
    await zi.waitFor("Created notes.txt.");
  }, 60000);
});
