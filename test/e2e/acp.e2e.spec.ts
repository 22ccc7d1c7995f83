import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { AcpZi } from "../support/acp-zi.js";
import { McpHttpServer } from "../support/mcp-http-server.js";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const RECORD_EXTENSION = join(process.cwd(), "test/fixtures/record-outcome.extension.mjs");

/** The session's mode `full-access`: tools run without asking (for tests about something else). */
async function fullAccess(zi: AcpZi, sessionId: string): Promise<void> {
  await zi.agent.request("session/set_mode", { sessionId, modeId: "full-access" });
}

const EVERYTHING = join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** The statuses of one tool call's updates, in order. */
const statuses = (zi: AcpZi, sessionId: string, toolCallId: string) =>
  zi
    .updatesOf(sessionId)
    .filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === toolCallId)
    .map((u) => (u as { status?: string }).status)
    .filter((status) => status !== undefined);

const kinds = (updates: acp.SessionUpdate[]) => updates.map((update) => update.sessionUpdate);

// Every message each Zi wrote in the test, checked against the v1 schema shipped in the SDK.
afterEach(() => expect(AcpZi.killAllChecked()).toEqual([]));

describe("zi --mode acp, driven by the official ACP SDK client", () => {
  it("the issue's check: initialize, session/new, prompt hello, a cancelled second prompt ends, session/list shows the session", async () => {
    const zi = await AcpZi.start();
    const init = await zi.initialize();
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.sessionCapabilities?.list).toEqual({});
    const cwd = AcpZi.project();
    const { sessionId } = await zi.newSession(cwd);
    const first = await zi.prompt(sessionId, "hello");
    expect(first.stopReason).toBe("end_turn");
    expect(zi.messageText(sessionId)).toBe("Echo: hello");
    expect(kinds(zi.updatesOf(sessionId))).toContain("agent_message_chunk");

    const second = zi.prompt(sessionId, "again");
    await zi.agent.notify("session/cancel", { sessionId });
    expect(["cancelled", "end_turn"]).toContain((await second).stopReason);

    const list = await zi.agent.request("session/list", { cwd });
    expect(list.sessions.map((session) => session.sessionId)).toEqual([sessionId]);
    expect(list.sessions[0]).toMatchObject({ cwd, title: "hello" });
    expect(await zi.close()).toBe(0);
  });

  it("advertises only what is wired: images, no audio, MCP over stdio and HTTP (not SSE); embedded context, list, resume, close, fork", async () => {
    const zi = await AcpZi.start();
    const init = await zi.initialize();
    expect(init.agentCapabilities).toEqual({
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { list: {}, resume: {}, close: {}, fork: {} },
    });
    expect(init.agentInfo).toMatchObject({ name: "zi" });
    expect(init.authMethods).toEqual([]);
  });

  it("cancels mid-run: the prompt answers cancelled once a chunk streamed, and the session takes the next prompt", async () => {
    const zi = await AcpZi.start({ settings: { defaultModel: "faux/scripted" }, fauxScript: { responses: [{ text: "a long and slow reply that never finishes in time", tokensPerSecond: 2 }] } });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    const running = zi.prompt(sessionId, "start");
    await zi.until(() => zi.messageText(sessionId).length > 0);
    await zi.agent.notify("session/cancel", { sessionId });
    expect((await running).stopReason).toBe("cancelled");
    const next = await zi.prompt(sessionId, "after");
    expect(next.stopReason).toBe("end_turn");
    expect(zi.messageText(sessionId)).toContain("Echo: after");
  });

  it("maps tool calls: kind, title, locations, pending → in_progress → completed with the whole file's diff; failures; the plan; usage", async () => {
    const cwd = AcpZi.project();
    writeFileSync(join(cwd, "notes.txt"), "one\ntwo\n");
    const zi = await AcpZi.start({
      settings: { defaultModel: "faux/scripted" },
      fauxScript: {
        responses: [
          {
            thinking: "let me think",
            toolCalls: [
              { id: "w1", name: "write", arguments: { path: "new.txt", content: "fresh\n" } },
              { id: "e1", name: "edit", arguments: { path: "notes.txt", oldText: "two", newText: "TWO" } },
              { id: "r1", name: "read", arguments: { path: "missing.txt" } },
              { id: "p1", name: "update_plan", arguments: { steps: [{ title: "write", status: "completed" }, { title: "report", status: "in_progress" }, { title: "skip", status: "cancelled" }] } },
            ],
          },
          { text: "done" },
        ],
      },
    });
    await zi.initialize();
    const { sessionId } = await zi.newSession(cwd);
    await fullAccess(zi, sessionId);
    expect((await zi.prompt(sessionId, "work")).stopReason).toBe("end_turn");
    const updates = zi.updatesOf(sessionId);
    expect(updates).toContainEqual({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: expect.any(String) } });
    const thought = updates.flatMap((u) => (u.sessionUpdate === "agent_thought_chunk" && u.content.type === "text" ? [u.content.text] : [])).join("");
    expect(thought).toBe("let me think");

    const of = (id: string) => updates.filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === id);
    const write = of("w1");
    expect(write[0]).toMatchObject({ sessionUpdate: "tool_call", title: "Write new.txt", kind: "edit", status: "pending", locations: [{ path: join(cwd, "new.txt") }] });
    expect(write.map((u) => (u as { status?: string }).status)).toEqual(["pending", "in_progress", "completed"]);
    expect((write[2] as acp.ToolCallUpdate).content?.[0]).toEqual({ type: "diff", path: join(cwd, "new.txt"), oldText: null, newText: "fresh\n" });
    const edit = of("e1");
    expect(edit[0]).toMatchObject({ kind: "edit", title: "Edit notes.txt" });
    expect((edit.at(-1) as acp.ToolCallUpdate).content?.[0]).toEqual({ type: "diff", path: join(cwd, "notes.txt"), oldText: "one\ntwo\n", newText: "one\nTWO\n" });
    const read = of("r1");
    expect(read[0]).toMatchObject({ kind: "read", title: "Read missing.txt" });
    expect(read.at(-1)).toMatchObject({ status: "failed" });
    expect((read.at(-1) as acp.ToolCallUpdate).content?.[0]).toMatchObject({ type: "content", content: { type: "text" } });
    expect(of("p1")[0]).toMatchObject({ kind: "think" });
    expect(updates).toContainEqual({
      sessionUpdate: "plan",
      entries: [
        { content: "write", priority: "medium", status: "completed" },
        { content: "report", priority: "medium", status: "in_progress" },
        { content: "skip (cancelled)", priority: "medium", status: "completed" },
      ],
    });
    expect(updates.filter((u) => u.sessionUpdate === "usage_update").length).toBe(2);
    expect(zi.messageText(sessionId)).toBe("done");
  });

  it("delegation: the delegate call's progress streams as tool_call_updates, and its result completes it", async () => {
    const zi = await AcpZi.start({
      settings: { defaultModel: "faux/scripted" },
      fauxScript: {
        responses: [
          { toolCalls: [{ id: "d1", name: "delegate", arguments: { tasks: [{ profile: "explore", task: "Where are the docs?" }] } }] },
          { profile: "explore", text: "The docs are in docs/." },
          { text: "reported back" },
        ],
      },
    });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    await fullAccess(zi, sessionId);
    expect((await zi.prompt(sessionId, "delegate")).stopReason).toBe("end_turn");
    const calls = zi.updatesOf(sessionId).filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === "d1");
    expect(calls[0]).toMatchObject({ sessionUpdate: "tool_call", kind: "think", title: "Delegate to subagents", status: "pending" });
    const progress = calls.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === undefined);
    expect(progress.length).toBeGreaterThan(0);
    expect(JSON.stringify(progress[0])).toContain("explore");
    expect(calls.at(-1)).toMatchObject({ status: "completed" });
    expect(JSON.stringify(calls.at(-1))).toContain("The docs are in docs/.");
    expect(zi.messageText(sessionId)).toBe("reported back");
  });

  it("session/load replays the journal as updates, in a new process; session/list filters by cwd; resume and close", async () => {
    const home = AcpZi.dir();
    const cwd = AcpZi.project();
    const other = AcpZi.project();
    const script = { responses: [{ toolCalls: [{ id: "w1", name: "write", arguments: { path: "a.txt", content: "A\n" } }] }, { text: "wrote it" }] };
    const first = await AcpZi.start({ home, settings: { defaultModel: "faux/scripted" }, fauxScript: script });
    await first.initialize();
    const { sessionId } = await first.newSession(cwd);
    await fullAccess(first, sessionId);
    await first.prompt(sessionId, "write a");
    const { sessionId: elsewhere } = await first.newSession(other);
    await first.prompt(elsewhere, "hi there");
    expect(await first.close()).toBe(0);

    // The second process's script is spent: faux/scripted echoes.
    const zi = await AcpZi.start({ home, settings: { defaultModel: "faux/scripted" }, fauxScript: { responses: [] } });
    await zi.initialize();
    expect((await zi.agent.request("session/list", { cwd })).sessions.map((s) => s.sessionId)).toEqual([sessionId]);
    expect((await zi.agent.request("session/list", {})).sessions.map((s) => s.sessionId).sort()).toEqual([sessionId, elsewhere].sort());
    const loaded = await zi.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    expect(loaded.configOptions?.[0]).toMatchObject({ id: "model", currentValue: "faux/scripted" });
    // The replay waits for the session's tools (their declarations describe the calls): commands may come first.
    const replay = zi.updatesOf(sessionId).filter((update) => update.sessionUpdate !== "available_commands_update");
    expect(replay[0]).toEqual({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "write a" } });
    expect(replay).toContainEqual(expect.objectContaining({ sessionUpdate: "tool_call", toolCallId: "w1", kind: "edit", title: "Write a.txt" }));
    expect(replay).toContainEqual(
      expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: "w1", status: "completed", content: expect.arrayContaining([{ type: "diff", path: join(cwd, "a.txt"), oldText: null, newText: "A\n" }]) }),
    );
    expect(zi.messageText(sessionId)).toBe("wrote it");
    // The loaded session goes on: its journal grows.
    const mark = zi.updates.length;
    expect((await zi.prompt(sessionId, "more")).stopReason).toBe("end_turn");
    expect(zi.messageText(sessionId, mark)).toBe("Echo: more");

    await expect(zi.agent.request("session/load", { sessionId, cwd: other, mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
    await expect(zi.agent.request("session/load", { sessionId: "no-such-session", cwd, mcpServers: [] })).rejects.toMatchObject({ code: -32002 });

    const before = zi.updates.length;
    await zi.agent.request("session/resume", { sessionId: elsewhere, cwd: other });
    expect(zi.updatesOf(elsewhere, before).filter((u) => u.sessionUpdate !== "available_commands_update")).toEqual([]);
    await zi.agent.request("session/close", { sessionId: elsewhere });
    await expect(zi.agent.request("session/close", { sessionId: elsewhere })).resolves.toEqual({});
    await expect(zi.prompt(elsewhere, "closed")).rejects.toMatchObject({ code: -32002 });
    expect(await zi.close()).toBe(0);
    const journal = readdirSync(join(home, "sessions")).find((name) => name.endsWith(`_${sessionId}.jsonl`))!;
    expect(readFileSync(join(home, "sessions", journal), "utf8")).toContain("Echo: more");
  });

  it("past 8 live sessions the least recently used idle one is closed, and session/load brings it back", async () => {
    const zi = await AcpZi.start();
    await zi.initialize();
    const cwd = AcpZi.project();
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) ids.push((await zi.newSession(cwd)).sessionId);
    await expect(zi.prompt(ids[0]!, "evicted?")).rejects.toMatchObject({ code: -32002 });
    expect((await zi.prompt(ids[8]!, "live")).stopReason).toBe("end_turn");
    await zi.agent.request("session/load", { sessionId: ids[0]!, cwd, mcpServers: [] });
    expect((await zi.prompt(ids[0]!, "back")).stopReason).toBe("end_turn");
  });

  it("model and thinking through config options", async () => {
    const zi = await AcpZi.start({ fauxScript: { responses: [] } });
    await zi.initialize();
    const created = await zi.newSession(AcpZi.project());
    const model = created.configOptions?.find((option) => option.id === "model");
    expect(model).toMatchObject({ category: "model", type: "select", currentValue: "faux/echo" });
    expect(JSON.stringify(model)).toContain("faux/scripted");
    // Only what can be called: pi-ai's providers have no credentials here.
    expect(JSON.stringify(model)).not.toContain('"anthropic/');
    expect(created.configOptions?.some((option) => option.id === "thought_level")).toBe(false);
    const set = await zi.agent.request("session/set_config_option", { sessionId: created.sessionId, configId: "model", value: "faux/scripted" });
    expect(set.configOptions.find((option) => option.id === "model")).toMatchObject({ currentValue: "faux/scripted" });
    expect(set.configOptions.find((option) => option.id === "thought_level")).toMatchObject({ category: "thought_level", type: "select" });
    const thinking = await zi.agent.request("session/set_config_option", { sessionId: created.sessionId, configId: "thought_level", value: "high" });
    expect(thinking.configOptions.find((option) => option.id === "thought_level")).toMatchObject({ currentValue: "high" });
    await expect(zi.agent.request("session/set_config_option", { sessionId: created.sessionId, configId: "model", value: "faux/nope" })).rejects.toMatchObject({ code: -32602 });
    await expect(zi.agent.request("session/set_config_option", { sessionId: created.sessionId, configId: "colour", value: "red" })).rejects.toMatchObject({ code: -32602 });
  });

  it("slash commands: command.list as available_commands_update, /name args invokes the command", async () => {
    const zi = await AcpZi.start({ extensions: [RECORD_EXTENSION] });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    await zi.until(() => zi.updatesOf(sessionId).some((u) => u.sessionUpdate === "available_commands_update"));
    const commands = zi.updatesOf(sessionId).find((u) => u.sessionUpdate === "available_commands_update") as acp.AvailableCommandsUpdate;
    expect(commands.availableCommands).toEqual(expect.arrayContaining([{ name: "record", description: "records an operation outcome" }]));
    const mark = zi.updates.length;
    expect((await zi.prompt(sessionId, "/record abc")).stopReason).toBe("end_turn");
    expect(zi.messageText(sessionId, mark)).toBe("recorded abc");
    // An unknown /name is an ordinary prompt.
    expect((await zi.prompt(sessionId, "/nothing here")).stopReason).toBe("end_turn");
    expect(zi.messageText(sessionId, mark)).toContain("Echo: /nothing here");
  });

  it("prompt content: resource links become mentions, embedded text resources are quoted; images for a text-only model, bad images and blobs are refused", async () => {
    const zi = await AcpZi.start();
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    await zi.prompt(sessionId, [
      { type: "text", text: "look at" },
      { type: "resource_link", uri: "file:///src/a%20b.ts", name: "a b.ts" },
      { type: "resource", resource: { uri: "file:///src/c.ts", text: "const c = 1;" } },
    ]);
    expect(zi.messageText(sessionId)).toBe('Echo: look at\n@/src/a b.ts\n<context uri="file:///src/c.ts">\nconst c = 1;\n</context>');
    await expect(zi.prompt(sessionId, [{ type: "image", data: "aGk=", mimeType: "image/png" }])).rejects.toMatchObject({ code: -32602 });
    // faux/echo takes text only: a valid image is refused with the reason, before any turn.
    await expect(zi.prompt(sessionId, [{ type: "text", text: "what is this?" }, { type: "image", data: PNG, mimeType: "image/png" }])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("does not accept images"),
    });
    await expect(zi.prompt(sessionId, [{ type: "text", text: "x" }, { type: "image", data: PNG, mimeType: "image/jpeg" }])).rejects.toMatchObject({ code: -32602 });
    await expect(zi.prompt(sessionId, [])).rejects.toMatchObject({ code: -32602 });
    await expect(zi.prompt(sessionId, [{ type: "resource", resource: { uri: "file:///x.bin", blob: "aGk=" } }])).rejects.toMatchObject({ code: -32602 });
  });

  it("an image prompt reaches a vision model as an image part, after the text", async () => {
    const server = new OpenAICompatibleServer();
    await server.start();
    try {
      server.enqueue({ type: "text", chunks: ["a red pixel"] });
      const home = AcpZi.dir();
      const models = [{ id: "vision", name: "Vision", input: ["text", "image"] }];
      writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.baseUrl, apiKey: "sk-local", models } } }));
      const zi = await AcpZi.start({ home, settings: { defaultModel: "local/vision" } });
      expect((await zi.initialize()).agentCapabilities?.promptCapabilities?.image).toBe(true);
      const { sessionId } = await zi.newSession(AcpZi.project());
      const { stopReason } = await zi.prompt(sessionId, [{ type: "text", text: "what is this?" }, { type: "image", data: PNG, mimeType: "image/png" }]);
      expect(stopReason).toBe("end_turn");
      expect(zi.messageText(sessionId)).toBe("a red pixel");
      const user = (server.requests[0]!.body!.messages as { role: string; content: unknown }[]).find((message) => message.role === "user");
      expect(user!.content).toEqual([
        { type: "text", text: "what is this?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      ]);
    } finally {
      await server.stop();
    }
  });

  it("MCP servers from session/new reach the MCP plugin: the reference server's tools are offered and called", async () => {
    const zi = await AcpZi.start({
      settings: { defaultModel: "faux/scripted" },
      fauxScript: { responses: [{ toolCalls: [{ id: "m1", name: "mcp__everything__echo", arguments: { message: "hi there" } }] }, { text: "done" }] },
    });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project(), [{ name: "everything", command: process.execPath, args: [EVERYTHING, "stdio"], env: [{ name: "ZI_TEST_MARK", value: "1" }] }]);
    await fullAccess(zi, sessionId);
    expect((await zi.prompt(sessionId, "echo")).stopReason).toBe("end_turn");
    expect(statuses(zi, sessionId, "m1")).toEqual(["pending", "in_progress", "completed"]);
    const end = zi.updatesOf(sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "m1" && u.status === "completed");
    expect(JSON.stringify(end)).toContain("hi there");
    expect(zi.messageText(sessionId)).toBe("done");
    expect(zi.messageText(sessionId)).not.toContain("not connected");
  });

  it("an HTTP MCP server from session/new is called with the editor's headers", async () => {
    const http = new McpHttpServer();
    const url = await http.start();
    try {
      const zi = await AcpZi.start({
        settings: { defaultModel: "faux/scripted" },
        fauxScript: { responses: [{ toolCalls: [{ id: "h1", name: "mcp__remote__whoami", arguments: {} }] }, { text: "done" }] },
      });
      await zi.initialize();
      const { sessionId } = await zi.newSession(AcpZi.project(), [{ type: "http", name: "remote", url, headers: [{ name: "Authorization", value: "Bearer acp-token" }] }]);
      await fullAccess(zi, sessionId);
      expect((await zi.prompt(sessionId, "who")).stopReason).toBe("end_turn");
      const end = zi.updatesOf(sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "h1" && u.status === "completed");
      expect(JSON.stringify(end)).toContain("authorized: yes");
      expect(http.headers.length).toBeGreaterThan(0);
      for (const headers of http.headers) expect(headers.authorization).toBe("Bearer acp-token");
    } finally {
      await http.stop();
    }
  });

  it("MCP servers it cannot connect (SSE) are reported to the user, never silently dropped", async () => {
    const sse: acp.McpServer = { type: "sse", name: "files", url: "http://127.0.0.1:9/sse", headers: [] };
    const zi = await AcpZi.start();
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project(), [sse]);
    await zi.until(() => zi.messageText(sessionId).includes("MCP servers not connected: files"));
    expect(zi.messageText(sessionId)).toContain("SSE servers are not supported");
    const withNotices = await AcpZi.start();
    await withNotices.initialize({ session: { notices: {} } });
    const second = await withNotices.newSession(AcpZi.project(), [sse]);
    await withNotices.until(() => withNotices.updatesOf(second.sessionId).some((u) => u.sessionUpdate === "notice"));
    expect(withNotices.updatesOf(second.sessionId).find((u) => u.sessionUpdate === "notice")).toMatchObject({ severity: "warning", title: "MCP servers not connected: files" });
  });

  it("permissions: the default mode asks; allow once, reject once, allow always (not asked again), reject always (denied without asking); reads run", async () => {
    const cwd = AcpZi.project();
    writeFileSync(join(cwd, "notes.txt"), "notes\n");
    const turn = (call: object) => [{ toolCalls: [call] }, { text: "ok" }];
    const zi = await AcpZi.start({
      settings: { defaultModel: "faux/scripted" },
      fauxScript: {
        responses: [
          ...turn({ id: "r0", name: "read", arguments: { path: "notes.txt" } }),
          ...turn({ id: "w1", name: "write", arguments: { path: "a.txt", content: "A\n" } }),
          ...turn({ id: "w2", name: "write", arguments: { path: "b.txt", content: "B\n" } }),
          ...turn({ id: "b1", name: "bash", arguments: { command: "touch c.txt" } }),
          ...turn({ id: "b2", name: "bash", arguments: { command: "touch c.txt" } }),
          ...turn({ id: "b3", name: "bash", arguments: { command: "rm notes.txt" } }),
          ...turn({ id: "b4", name: "bash", arguments: { command: "rm notes.txt" } }),
        ],
      },
      onPermission: (request) => {
        asked.push(request);
        const answer = answers.get(request.toolCall.toolCallId);
        return { outcome: answer === undefined ? { outcome: "cancelled" } : { outcome: "selected", optionId: answer } };
      },
    });
    const asked: acp.RequestPermissionRequest[] = [];
    const answers = new Map([
      ["w1", "allow_once"],
      ["w2", "reject_once"],
      ["b1", "allow_always"],
      ["b3", "reject_always"],
    ]);
    await zi.initialize();
    const created = await zi.newSession(cwd);
    const { sessionId } = created;
    expect(created.modes).toEqual({ currentModeId: "ask", availableModes: [expect.objectContaining({ id: "ask" }), expect.objectContaining({ id: "accept-edits" }), expect.objectContaining({ id: "full-access" })] });
    for (const prompt of ["read", "w1", "w2", "b1", "b2", "b3", "b4"]) expect((await zi.prompt(sessionId, prompt)).stopReason).toBe("end_turn");

    expect(asked.map((request) => request.toolCall.toolCallId)).toEqual(["w1", "w2", "b1", "b3"]);
    expect(asked[0]).toMatchObject({ sessionId, toolCall: { toolCallId: "w1", kind: "edit", status: "pending" } });
    expect(asked[0]!.options.map((option) => [option.optionId, option.kind])).toEqual([
      ["allow_once", "allow_once"],
      ["allow_always", "allow_always"],
      ["reject_once", "reject_once"],
      ["reject_always", "reject_always"],
    ]);
    expect(statuses(zi, sessionId, "r0")).toEqual(["pending", "in_progress", "completed"]);
    expect(statuses(zi, sessionId, "w1")).toEqual(["pending", "in_progress", "completed"]);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("A\n");
    expect(statuses(zi, sessionId, "w2").at(-1)).toBe("failed");
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    expect(statuses(zi, sessionId, "b2")).toEqual(["pending", "in_progress", "completed"]);
    expect(existsSync(join(cwd, "c.txt"))).toBe(true);
    expect(statuses(zi, sessionId, "b3").at(-1)).toBe("failed");
    expect(statuses(zi, sessionId, "b4").at(-1)).toBe("failed");
    expect(existsSync(join(cwd, "notes.txt"))).toBe(true);
  });

  it("session/cancel with a permission request pending: the editor answers cancelled, the call is denied and the prompt answers cancelled", async () => {
    const cwd = AcpZi.project();
    let release: (response: acp.RequestPermissionResponse) => void = () => undefined;
    let askedResolve: () => void = () => undefined;
    const askedOnce = new Promise<void>((resolve) => (askedResolve = resolve));
    const zi = await AcpZi.start({
      settings: { defaultModel: "faux/scripted" },
      fauxScript: { responses: [{ toolCalls: [{ id: "w1", name: "write", arguments: { path: "a.txt", content: "A\n" } }] }, { text: "never" }] },
      onPermission: () => {
        askedResolve();
        return new Promise((resolve) => (release = resolve));
      },
    });
    await zi.initialize();
    const { sessionId } = await zi.newSession(cwd);
    const running = zi.prompt(sessionId, "write");
    await askedOnce;
    await zi.agent.notify("session/cancel", { sessionId });
    // What the ACP spec asks of the client once it has sent session/cancel.
    release({ outcome: { outcome: "cancelled" } });
    expect((await running).stopReason).toBe("cancelled");
    expect(statuses(zi, sessionId, "w1").at(-1)).toBe("failed");
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    expect(zi.messageText(sessionId)).not.toContain("never");
  });

  it("session/set_mode: accept-edits writes in cwd without asking and asks for commands; full-access asks nothing; an unknown mode is refused", async () => {
    const cwd = AcpZi.project();
    const asked: string[] = [];
    const zi = await AcpZi.start({
      settings: { defaultModel: "faux/scripted" },
      fauxScript: {
        responses: [
          { toolCalls: [{ id: "w1", name: "write", arguments: { path: "a.txt", content: "A\n" } }, { id: "b1", name: "bash", arguments: { command: "echo hi > b.txt" } }] },
          { text: "ok" },
          { toolCalls: [{ id: "b2", name: "bash", arguments: { command: "echo hi > c.txt" } }] },
          { text: "ok" },
        ],
      },
      onPermission: (request) => {
        asked.push(request.toolCall.toolCallId);
        return { outcome: { outcome: "selected", optionId: "reject_once" } };
      },
    });
    await zi.initialize();
    const { sessionId } = await zi.newSession(cwd);
    expect(await zi.agent.request("session/set_mode", { sessionId, modeId: "accept-edits" })).toEqual({});
    await zi.prompt(sessionId, "edits");
    expect(asked).toEqual(["b1"]);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("A\n");
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    await fullAccess(zi, sessionId);
    await zi.prompt(sessionId, "commands");
    expect(asked).toEqual(["b1"]);
    expect(readFileSync(join(cwd, "c.txt"), "utf8")).toBe("hi\n");
    await expect(zi.agent.request("session/set_mode", { sessionId, modeId: "yolo" })).rejects.toMatchObject({ code: -32602 });
  });

  it("a failed model call answers the prompt with a JSON-RPC error carrying the provider's message", async () => {
    const zi = await AcpZi.start({ settings: { defaultModel: "faux/scripted" }, fauxScript: { responses: [{ error: { message: "provider exploded" } }] } });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    await expect(zi.prompt(sessionId, "go")).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("provider exploded") });
  });

  it("the schema check is not vacuous: a malformed update, result or stray line is reported", () => {
    const requests = new Map<unknown, string>([[1, "session/prompt"]]);
    expect(AcpZi.schemaProblemsOf([{ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk" } } }], requests)).not.toEqual([]);
    expect(AcpZi.schemaProblemsOf([{ jsonrpc: "2.0", id: 1, result: { stopReason: "done" } }], requests)).not.toEqual([]);
    expect(AcpZi.schemaProblemsOf([{ notJson: "hello" }], requests)).not.toEqual([]);
    expect(AcpZi.schemaProblemsOf([{ jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } }], requests)).toEqual([]);
  });

  it("bad input gets JSON-RPC errors and never a crash; stdout carries only JSON-RPC", async () => {
    const zi = await AcpZi.start();
    zi.writeRaw("{ not json\n");
    zi.writeRaw("[1,2]\n");
    await expect(zi.agent.request("session/new", { cwd: "/tmp", mcpServers: [] })).rejects.toMatchObject({ code: -32600 });
    await zi.initialize();
    await expect(zi.agent.request("no/such/method", {})).rejects.toMatchObject({ code: -32601 });
    await expect(zi.agent.request("session/new", { cwd: 42 })).rejects.toMatchObject({ code: -32602 });
    await expect(zi.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] })).rejects.toMatchObject({ code: -32602 });
    await expect(zi.prompt("no-such-session", "hi")).rejects.toMatchObject({ code: -32002 });
    const { sessionId } = await zi.newSession(AcpZi.project());
    expect((await zi.prompt(sessionId, "still alive")).stopReason).toBe("end_turn");
    expect(zi.written.filter((message) => message.id === null).map((message) => (message.error as { code: number }).code)).toEqual([-32700, -32600]);
    expect(zi.written.every((message) => message.jsonrpc === "2.0")).toBe(true);
    expect(await zi.close()).toBe(0);
  });

  it("what an extension prints goes to stderr, never into the protocol", async () => {
    const dir = AcpZi.project();
    const noisy = join(dir, "noisy.extension.mjs");
    writeFileSync(noisy, 'export default () => { console.log("noise on console.log"); process.stdout.write("noise on stdout\\n"); };\n');
    const zi = await AcpZi.start({ extensions: [noisy] });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    expect((await zi.prompt(sessionId, "quiet?")).stopReason).toBe("end_turn");
    expect(zi.rawLines.some((line) => line.includes("noise"))).toBe(false);
    // stderr is another pipe: its bytes may arrive after the answer.
    await zi.until(() => zi.stderr.includes("noise on console.log") && zi.stderr.includes("noise on stdout"));
  });

  it("a cancel during a slash command interrupts it and answers cancelled", async () => {
    const zi = await AcpZi.start({ extensions: [RECORD_EXTENSION] });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    await zi.until(() => zi.updatesOf(sessionId).some((u) => u.sessionUpdate === "available_commands_update"));
    const hanging = zi.prompt(sessionId, "/hang");
    // The command is running once its title update is out (sent just before it is invoked).
    await zi.until(() => zi.updatesOf(sessionId).some((u) => u.sessionUpdate === "session_info_update"));
    await zi.agent.notify("session/cancel", { sessionId });
    expect((await hanging).stopReason).toBe("cancelled");
  });

  it("session/close during a prompt answers it cancelled", async () => {
    const zi = await AcpZi.start({ settings: { defaultModel: "faux/scripted" }, fauxScript: { responses: [{ text: "slow slow slow slow", tokensPerSecond: 2 }] } });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    const running = zi.prompt(sessionId, "start");
    await zi.until(() => zi.messageText(sessionId).length > 0);
    await zi.agent.request("session/close", { sessionId });
    expect((await running).stopReason).toBe("cancelled");
  });

  it("SIGTERM ends Zi with 143; a record over 16 MiB is fatal framing (exit 1)", async () => {
    const zi = await AcpZi.start();
    await zi.initialize();
    zi.child.kill("SIGTERM");
    expect(await zi.exited).toBe(143);
    const big = await AcpZi.start();
    await big.initialize();
    big.writeRaw(`${"x".repeat(16 * 1024 * 1024 + 1)}\n`);
    expect(await big.exited).toBe(1);
    await big.until(() => big.stderr.includes("exceeds"));
  });

  it("stdin closing mid-run ends Zi with exit code 0 and the journal intact", async () => {
    const zi = await AcpZi.start({ settings: { defaultModel: "faux/scripted" }, fauxScript: { responses: [{ text: "slow slow slow slow slow", tokensPerSecond: 2 }] } });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    void zi.prompt(sessionId, "keep this prompt").catch(() => undefined);
    await zi.until(() => zi.messageText(sessionId).length > 0);
    expect(await zi.close()).toBe(0);
    const journal = readdirSync(join(zi.home, "sessions")).find((name) => name.endsWith(`_${sessionId}.jsonl`))!;
    const entries = readFileSync(join(zi.home, "sessions", journal), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(entries[0]).toMatchObject({ type: "session", sessionId });
    expect(entries.some((entry) => entry.type === "message" && entry.message.role === "user" && JSON.stringify(entry.message.content).includes("keep this prompt"))).toBe(true);
  });
});
