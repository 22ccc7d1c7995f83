import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dumpDom } from "../support/headless-chromium.js";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { ZiProcess } from "../support/zi-process.js";

const PLANTED = `second prompt <script>document.documentElement.setAttribute("data-pwned","script")</script><img src="x" onerror="document.documentElement.setAttribute('data-pwned','img')">`;

const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  ZiProcess.killAll();
  for (const server of servers.splice(0)) await server.stop();
});

async function setup() {
  const server = new OpenAICompatibleServer();
  servers.push(server);
  await server.start();
  const root = mkdtempSync(join(tmpdir(), "zi-e2e-tree-"));
  const home = join(root, "home");
  const cwd = join(root, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.baseUrl, apiKey: "sk-local", models: [{ id: "m", name: "M", input: ["text"] }] } } }));
  writeFileSync(join(cwd, "a.txt"), "original\n");
  const zi = new ZiProcess({ ziHome: home, cwd, args: ["--mode", "rpc"] });
  await zi.call("m", "model.select", { provider: "local", id: "m" });
  return { server, zi, cwd, home };
}

const texts = (body: Record<string, unknown> | undefined): string[] =>
  ((body?.messages ?? []) as { role: string; content: unknown }[])
    .filter((message) => message.role !== "system" && message.role !== "developer")
    .map((message) => {
      const content = typeof message.content === "string" ? message.content : (message.content as { text?: string }[]).map((part) => part.text ?? "").join("");
      return `${message.role}:${content}`;
    });

describe("sessions as a tree over RPC (issue 28)", () => {
  it("rewind with both restores a.txt and the model sees only the first exchange; fork copies it; list shows both; the HTML export runs nothing", async () => {
    const { server, zi, cwd } = await setup();
    server.enqueue(
      { type: "text", chunks: ["first answer"] },
      { type: "tool_call", name: "write", arguments: { path: "a.txt", content: "changed by the agent\n" } },
      { type: "text", chunks: ["wrote it"] },
      { type: "text", chunks: ["third answer"] },
    );
    await zi.call("p1", "session.prompt", { delivery: "direct", text: "first prompt" });
    await zi.call("w1", "session.await_idle", {});
    await zi.call("p2", "session.prompt", { delivery: "direct", text: PLANTED });
    await zi.call("w2", "session.await_idle", {});
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("changed by the agent\n");

    const tree = (await zi.call("t", "session.get_tree", {})).result;
    const firstAnswer = tree.entries.find((entry: any) => entry.role === "assistant" && entry.label === "first answer");
    expect(firstAnswer).toBeDefined();
    expect(tree.entries.some((entry: any) => entry.type === "file_checkpoint")).toBe(true);

    const rewind = await zi.call("r", "session.rewind", { entryId: firstAnswer.id, restore: "both" });
    expect(rewind.result).toMatchObject({ messageCount: 2, files: [{ path: join(cwd, "a.txt"), action: "restored" }] });
    expect(rewind.result.notCovered).toMatch(/bash/);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("original\n");
    expect(zi.events("leaf_changed").at(-1)).toMatchObject({ targetId: firstAnswer.id, messageCount: 2 });

    await zi.call("p3", "session.prompt", { delivery: "direct", text: "third prompt" });
    await zi.call("w3", "session.await_idle", {});
    expect(server.requests).toHaveLength(4);
    expect(texts(server.requests[3]!.body)).toEqual(["user:first prompt", "assistant:first answer", "user:third prompt"]);

    // The abandoned branch stays in the journal's tree.
    const after = (await zi.call("t2", "session.get_tree", {})).result;
    expect(after.entries.some((entry: any) => entry.role === "user" && entry.label.startsWith("second prompt"))).toBe(true);
    const exported = (await zi.call("x", "session.export", { format: "html" })).result;

    const original = (await zi.call("s", "session.get_state", {})).result.sessionId;
    const fork = (await zi.call("f", "session.fork", { entryId: firstAnswer.id })).result;
    expect(fork.sessionId).not.toBe(original);
    expect(zi.events("session_switched").at(-1)).toMatchObject({ reason: "fork", path: fork.path, state: { sessionId: fork.sessionId, messageCount: 2 } });
    const messages = (await zi.call("g", "session.get_messages", {})).result.messages;
    expect(messages.map((message: any) => message.role)).toEqual(["user", "assistant"]);
    expect(messages[0].content).toEqual([{ type: "text", text: "first prompt" }]);

    const listed = (await zi.call("l", "session.list", { scope: "all" })).result;
    expect(listed.sessions.map((session: any) => session.id).sort()).toEqual([original, fork.sessionId].sort());
    expect(listed.sessions.find((session: any) => session.id === original)).toMatchObject({ title: "first prompt", messageCount: 8 });
    expect(listed.sessions.find((session: any) => session.id === fork.sessionId)).toMatchObject({ title: "first prompt", messageCount: 2 });
    await zi.close();

    const page = await dumpDom(exported.path);
    expect(page.code).toBe(0);
    expect(page.dom).toContain("first prompt");
    expect(page.dom).toContain("third prompt");
    expect(page.dom).toContain("&lt;script&gt;document.documentElement.setAttribute");
    // Had either planted piece run, the root element would carry the attribute it sets.
    expect(/<html[^>]*>/.exec(page.dom)![0]).not.toContain("data-pwned");
    expect(page.log).not.toMatch(/CONSOLE|Refused to/);
  }, 60_000);
});
