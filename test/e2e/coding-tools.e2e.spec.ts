import { afterEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { rg, rgMatches, sortedPaths } from "../support/ripgrep-oracle.js";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());
const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const DEPENDENCIES = ["ignore", "diff", "image-size", "tsyringe"];

/**
 * The check, black-box: a git repository of real source text (Zi's own sources and a vendored
 * copy of its dependencies), the same dependencies again as ignored build output, a nested .gitignore.
 * A local OpenAI-compatible provider scripts the tool calls and records what Zi sends back.
 */
function writeProject(): string {
  const project = mkdtempSync(join(tmpdir(), "zi-e2e-tools-"));
  cpSync(join(ROOT, "core"), join(project, "src"), { recursive: true });
  cpSync(join(ROOT, "docs"), join(project, "docs"), { recursive: true });
  for (const name of DEPENDENCIES) {
    cpSync(join(ROOT, "node_modules", name), join(project, "vendor", name), { recursive: true });
    cpSync(join(ROOT, "node_modules", name), join(project, "build", "deps", name), { recursive: true });
  }
  writeFileSync(join(project, ".gitignore"), "build/\n*.log\n");
  writeFileSync(join(project, "vendor", ".gitignore"), "*.map\n*.d.ts\n");
  writeFileSync(join(project, "notes.log"), "export class Hidden {}\n");
  writeFileSync(join(project, "calc.ts"), "export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n");
  mkdirSync(join(project, "assets"));
  writeFileSync(join(project, "assets", "logo.png"), PNG);
  execFileSync("git", ["init", "-q"], { cwd: project });
  return project;
}

describe("coding tools as a black box: a local provider drives them in a real repository", () => {
  it("grep and find return exactly ripgrep's results, one edit call changes two places, and a PNG reaches the model as an image", async () => {
    const project = writeProject();
    const server = new OpenAICompatibleServer();
    servers.push(server);
    const baseUrl = await server.start();
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-tools-home-"));
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl, apiKey: "k", models: [{ id: "vision", input: ["text", "image"] }] } } }));
    server.enqueue(
      { type: "tool_call", name: "grep", arguments: { pattern: "export (abstract )?class \\w+", limit: 2000 } },
      { type: "tool_call", name: "find", arguments: { pattern: "*.md", limit: 5000 } },
      { type: "tool_call", name: "grep", arguments: { pattern: "zi_no_such_token_4b1d" } },
      {
        type: "tool_call",
        name: "edit",
        arguments: {
          path: "calc.ts",
          edits: JSON.stringify([
            { oldText: "return a + b;", newText: "return a + b + 0;" },
            { oldText: "return a - b;", newText: "return a - b - 0;" },
          ]),
        },
      },
      { type: "tool_call", name: "read", arguments: { path: "assets/logo.png" } },
      { type: "text", chunks: ["done"] },
    );
    const zi = new ZiProcess({ ziHome: home, cwd: project, args: ["--mode", "rpc", "--no-session"] });
    await zi.call("m", "model.select", { provider: "local", id: "vision" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "work", completionId: "c1" });
    const idle = await zi.call("w", "session.await_idle", { completionId: "c1" }, 60_000);
    expect(idle.result.completion).toMatchObject({ text: "done", stopReason: "stop" });
    expect((await zi.close()).code).toBe(0);

    // The last request carries every tool result Zi sent back, in order.
    const messages = server.requests[server.requests.length - 1]!.body!.messages as any[];
    const toolTexts = messages.filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join("")));
    expect(toolTexts).toHaveLength(5);

    const classes = rgMatches(project, ["export (abstract )?class \\w+"]);
    expect(classes.length).toBeGreaterThan(20);
    expect(classes.some((line) => line.startsWith("vendor/"))).toBe(true);
    expect(toolTexts[0]!.split("\n")).toEqual(classes);
    expect(toolTexts[0]).not.toContain("build/");

    const markdown = sortedPaths(rg(project, ["--files"]).filter((path) => path.endsWith(".md")));
    expect(markdown.some((path) => path.startsWith("vendor/"))).toBe(true);
    expect(toolTexts[1]!.split("\n")).toEqual(markdown);
    expect(toolTexts[2]).toBe("No matches found.");

    expect(toolTexts[3]).toBe("Edited calc.ts: applied 2 edits, replaced 2 occurrences (first at line 2).");
    expect(readFileSync(join(project, "calc.ts"), "utf8")).toContain("return a + b + 0;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b - 0;");

    expect(toolTexts[4]).toBe("Read image assets/logo.png (PNG, 1x1 pixels, 0.1 KiB).");
    const images = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((part: any) => part.type === "image_url");
    expect(images).toEqual([expect.objectContaining({ image_url: expect.objectContaining({ url: `data:image/png;base64,${PNG.toString("base64")}` }) })]);
  });
});
