// Renders a small sample session (a prompt, folded thinking, an edit with its diff, a branch left by a
// rewind) with the HTML export and photographs it in headless chromium: docs/session-export.png, the
// picture in docs/sessions.md. Runs the compiled code (`npm run build` first).
//   node scripts/session-export-screenshot.mjs
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(new URL("..", import.meta.url).pathname);
const load = (path) => import(pathToFileURL(join(root, "dist", path)).href);
const { SessionJournal } = await load("core/journal/session-journal.js");
const { SessionHtmlExport } = await load("core/journal/session-html-export.js");

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const assistant = (content) => ({ role: "assistant", content, api: "faux", provider: "faux", model: "echo", usage, stopReason: "stop", timestamp: 1 });
const journal = SessionJournal.inMemory("3f0c9a2e-sample", "/home/me/project");
journal.append({ type: "message", message: { role: "user", content: "Rename `greet` to **welcome** in a.ts <script>alert(1)</script>", timestamp: 1 } });
const plan = journal.append({
  type: "message",
  message: assistant([
    { type: "thinking", thinking: "The function is defined once and called twice." },
    { type: "text", text: "I'll edit `a.ts`:\n\n- rename the function\n- update both calls" },
    { type: "toolCall", id: "t1", name: "edit", arguments: { path: "a.ts", oldText: "greet", newText: "welcome", replaceAll: true } },
  ]),
});
journal.append({
  type: "message",
  message: { role: "toolResult", toolCallId: "t1", toolName: "edit", content: [{ type: "text", text: "Edited a.ts: replaced 3 occurrences (first at line 1)." }], details: { diff: "@@ -1,3 +1,3 @@\n-export function greet() {}\n-greet();\n-greet();\n+export function welcome() {}\n+welcome();\n+welcome();" }, isError: false, timestamp: 2 },
});
journal.append({ type: "message", message: assistant([{ type: "text", text: "Done: `greet` is now `welcome`." }]) });
journal.append({ type: "branch", fromId: journal.leafId, summary: "Renamed greet to welcome; the user rewound it." }, plan.id);
journal.append({ type: "message", message: { role: "user", content: "Actually, keep the name and add a doc comment instead.", timestamp: 3 } });
journal.append({ type: "message", message: assistant([{ type: "text", text: "Sure: I'll add `/** Says hello. */` above `greet`." }]) });

const dir = mkdtempSync(join(tmpdir(), "zi-shot-"));
const page = join(dir, "export.html");
writeFileSync(page, SessionHtmlExport.render([...journal.entries()]));
const out = join(root, "docs", "session-export.png");
const result = spawnSync(process.env.CHROMIUM_BIN ?? "chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", `--user-data-dir=${join(dir, "profile")}`, "--window-size=1000,900", `--screenshot=${out}`, `file://${page}`], { encoding: "utf8" });
rmSync(dir, { recursive: true, force: true });
if (result.status !== 0) throw new Error(`chromium failed: ${result.stderr}`);
process.stdout.write(`${out}\n`);
