import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionHtmlExport } from "../../../core/journal/session-html-export.js";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import { visit } from "../../support/chromium-page.js";
import { assistantMessage, tempDir, userMessage } from "../../fixtures/journal/journal-fixtures.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PLANT = `<script>document.documentElement.dataset.pwned="script"</script><img src="x" onerror="document.documentElement.dataset.pwned='img'"><a href="https://example.com/x">link</a>`;

/** Writes the journal's page, opens it in chromium and answers what the page holds. */
async function open(dir: string, journal: SessionJournal, name: string) {
  const file = join(dir, `${name}.html`);
  writeFileSync(file, SessionHtmlExport.render([...journal.entries()]));
  return visit(file);
}

describe("the HTML export in headless chromium", () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterAll(() => cleanup());

  it("shows the transcript (markdown, folded thinking, tool call, diff, image, branches) with no request and no console problem; planted markup runs nothing", async () => {
    const journal = SessionJournal.inMemory("s", "/p");
    const first = journal.append({ type: "message", message: userMessage(`# Plan\nhello **bold** ${PLANT}`) });
    journal.append({
      type: "message",
      message: { ...assistantMessage(""), content: [{ type: "thinking", thinking: "SECRET-THOUGHT" }, { type: "text", text: "answer one" }, { type: "toolCall", id: "t1", name: "edit", arguments: { path: "a.txt", note: PLANT } }] } as never,
    });
    journal.append({ type: "message", message: { role: "toolResult", toolCallId: "t1", toolName: "edit", content: [{ type: "text", text: "Edited a.txt" }], details: { diff: "-old line\n+new line" }, isError: false, timestamp: 1 } as never });
    journal.append({ type: "message", message: { role: "user", content: [{ type: "text", text: "look at this" }, { type: "image", data: PNG, mimeType: "image/png" }], timestamp: 2 } as never });
    journal.append({ type: "message", message: assistantMessage("ABANDONED-REPLY") });
    journal.append({ type: "branch", fromId: journal.leafId }, first.id);
    journal.append({ type: "message", message: assistantMessage("the branch taken") });
    const page = await open(dir, journal, "rich");
    try {
      expect(page.requests).toEqual([]);
      expect(page.problems).toEqual([]);
      expect(await page.evaluate("document.documentElement.dataset.pwned ?? 'none'")).toBe("none");
      expect(await page.evaluate("document.querySelectorAll('script').length")).toBe(0);
      const text = String(await page.evaluate("document.body.innerText"));
      expect(text).toContain("<script>document.documentElement.dataset.pwned");
      expect(text).toContain("the branch taken");
      expect(await page.evaluate("document.querySelector('h3').textContent")).toBe("Plan");
      expect(await page.evaluate("document.querySelector('strong').textContent")).toBe("bold");
      // Thinking is folded; the abandoned branch is there, folded where it left.
      expect(await page.evaluate("[...document.querySelectorAll('details')].find((d) => d.textContent.includes('SECRET-THOUGHT')).open")).toBe(false);
      expect(await page.evaluate("[...document.querySelectorAll('details.branch')].some((d) => d.textContent.includes('ABANDONED-REPLY'))")).toBe(true);
      expect(await page.evaluate("document.querySelector('.diff .add').textContent")).toBe("+new line");
      expect(await page.evaluate("document.querySelector('img').naturalWidth")).toBe(1);
      expect(await page.evaluate("document.querySelectorAll('a[href]').length")).toBe(0);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("the checks can fail: the same markup unescaped and without the page's policy runs and requests", async () => {
    const file = join(dir, "control.html");
    writeFileSync(file, `<!DOCTYPE html><html><body>${PLANT}</body></html>`);
    const page = await visit(file);
    try {
      expect(await page.evaluate("document.documentElement.dataset.pwned")).toBe("img");
      expect(page.requests.length).toBeGreaterThan(0);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("a 2,000-message session loads (the time is measured in bench/session-tree.bench.mjs)", async () => {
    const journal = SessionJournal.inMemory("big", "/p");
    for (let i = 0; i < 1000; i++) {
      journal.append({ type: "message", message: userMessage(`question ${i} with \`code\` and *emphasis*`) });
      journal.append({ type: "message", message: assistantMessage(`answer ${i}\n\n- one\n- two\n\n\`\`\`\nconst x = ${i};\n\`\`\``) });
    }
    const page = await open(dir, journal, "big");
    try {
      expect(page.problems).toEqual([]);
      expect(await page.evaluate("document.querySelectorAll('section.entry').length")).toBe(2000);
    } finally {
      await page.close();
    }
  }, 60_000);
});

