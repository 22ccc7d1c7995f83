import { afterEach, describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TmuxZi } from "../support/tmux-zi.js";

afterEach(() => TmuxZi.killAll());
/** The list's highlighted row holds `text`. */
const highlighted = (text: string) => (screen: string) => TmuxZi.selectedRow(screen).includes(text);
const journals = (home: string): string[] => readdirSync(join(home, "sessions"), { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".jsonl"));

describe("the session tree in the interactive mode (tmux, 100x30)", () => {
  it("/fork: pick a prompt, a new session holds the conversation before it and the prompt is back in the editor", async () => {
    const zi = new TmuxZi({ args: ["--model", "faux/echo"] });
    await zi.waitFor(TmuxZi.footerNames("faux/echo"));
    zi.submit("one");
    await zi.waitFor("Echo: one");
    zi.submit("two");
    await zi.waitFor("Echo: two");
    zi.submit("/fork");
    await zi.waitFor("Fork before which prompt?");
    await zi.waitFor(highlighted("two"));
    zi.keys("Enter");
    const forked = await zi.waitForSettled("forked into a new session");
    expect(forked).toContain("Echo: one");
    expect(forked).not.toContain("Echo: two");
    expect(journals(zi.home)).toHaveLength(2);
    // The prompt is in the editor: Enter sends it, in the fork.
    zi.keys("Enter");
    await zi.waitFor("Echo: two");
    zi.submit("/exit");
    expect(await zi.exitStatus()).toBe(0);
  }, 60000);

  it("/rewind both: a file changed by hand refuses with the report, forcing restores it; the transcript goes back; /tree shows the branch left", async () => {
    const zi = new TmuxZi({
      args: ["--model", "faux/scripted"],
      settings: { permissions: { default: "allow" } },
      fauxScript: [{ text: "first answer" }, { toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "changed by zi\n" } }] }, { text: "wrote it" }],
    });
    writeFileSync(join(zi.cwd, "a.txt"), "original\n");
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    zi.submit("first");
    await zi.waitFor("first answer");
    zi.submit("second");
    await zi.waitFor("wrote it");
    expect(readFileSync(join(zi.cwd, "a.txt"), "utf8")).toBe("changed by zi\n");
    writeFileSync(join(zi.cwd, "a.txt"), "edited by hand\n");

    zi.submit("/rewind");
    await zi.waitFor("Rewind to which point?");
    await zi.waitFor(highlighted("zi: wrote it"));
    // Up, one row at a time (each press waits for the highlight to move), to the first answer.
    while (!TmuxZi.selectedRow(zi.screen()).includes("zi: first answer")) {
      const before = TmuxZi.selectedRow(zi.screen());
      zi.keys("Up");
      await zi.waitFor((screen) => TmuxZi.selectedRow(screen) !== before);
    }
    zi.keys("Enter");
    await zi.waitFor(highlighted("conversation and files"));
    zi.keys("Enter");
    const refused = await zi.waitFor("Rewind refused, nothing was changed:");
    expect(refused).toMatch(/a\.txt: it was changed since Zi's tools last wrote it/);
    expect(readFileSync(join(zi.cwd, "a.txt"), "utf8")).toBe("edited by hand\n");
    await zi.waitFor(highlighted("restore them anyway"));
    zi.keys("Enter");
    const rewound = await zi.waitForSettled("rewound: the model now sees");
    expect(rewound).toMatch(/restored .*a\.txt/);
    expect(rewound).not.toContain("restore them anyway");
    expect(rewound).not.toContain("wrote it");
    expect(rewound).toContain("first answer");
    expect(readFileSync(join(zi.cwd, "a.txt"), "utf8")).toBe("original\n");

    zi.submit("/tree");
    await zi.waitFor("Go to which point?");
    const tree = await zi.waitFor("○ zi: wrote it");
    expect(tree).toMatch(/● zi: first answer/);
    zi.keys("Escape");
    await zi.waitFor((screen) => !screen.includes("○ zi: wrote it"));
  }, 60000);

  it("/export writes the session as an HTML page and prints its path; /compact summarises the older context", async () => {
    const zi = new TmuxZi({
      args: ["--model", "faux/scripted"],
      settings: { compaction: { keepRecentTokens: 1024 } },
      fauxScript: [{ text: `long ${"answer ".repeat(900)}` }, { text: "short answer" }, { text: "THE SUMMARY" }],
    });
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    zi.submit("tell me everything");
    await zi.waitFor((screen) => screen.includes("answer answer") && !screen.includes("working…"));
    zi.submit("and briefly");
    await zi.waitFor("short answer");
    zi.submit("/export");
    await zi.waitFor("exported (");
    const pages = readdirSync(join(zi.home, "exports")).filter((name) => name.endsWith(".html"));
    expect(pages).toHaveLength(1);
    const page = readFileSync(join(zi.home, "exports", pages[0]!), "utf8");
    expect(page).toContain("tell me everything");
    expect(zi.screen().replace(/\s+/g, "")).toContain(join(zi.home, "exports", pages[0]!));

    zi.submit("/compact keep the file names");
    await zi.waitFor("the model now reads a summary of the older part");
    expect(zi.screen()).toContain("context compacted");
  }, 60000);
});
