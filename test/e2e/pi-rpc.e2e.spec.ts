import { afterEach, describe, expect, it } from "@jest/globals";
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RpcClient } from "@mariozechner/pi-coding-agent";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { PI_PACKAGE, PiRpcZi, ZI_BIN } from "../support/pi-rpc-zi.js";

type Event = { type: string; [field: string]: unknown };

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

afterEach(() => PiRpcZi.closeAll());

/** Resolves with the first event `match` accepts (the listener is in place before `trigger` runs). */
function nextEvent(client: RpcClient, match: (event: Event) => boolean, trigger?: () => unknown): Promise<Event> {
  return new Promise((resolve) => {
    const stop = client.onEvent((event) => {
      if (!match(event as Event)) return;
      stop();
      resolve(event as Event);
    });
    trigger?.();
  });
}

/** Resolves with the first `count` records `match` accepts, in arrival order. */
function collect(client: RpcClient, count: number, match: (event: Event) => boolean): Promise<Event[]> {
  return new Promise((resolve) => {
    const seen: Event[] = [];
    const stop = client.onEvent((event) => {
      if (!match(event as Event)) return;
      seen.push(event as Event);
      if (seen.length < count) return;
      stop();
      resolve(seen);
    });
  });
}

type Response = { id?: unknown; type: "response"; command: string; success: boolean; error?: string; data?: unknown };

/**
 * Every response the client receives to its own calls, in order. RpcClient's void methods (prompt,
 * steer, set_auto_retry, …) resolve whatever the response says, so the tests read the responses here.
 */
function recordResponses(client: RpcClient): Response[] {
  const responses: Response[] = [];
  const inner = client as unknown as { send(command: object): Promise<Response> };
  const send = inner.send.bind(client);
  inner.send = async (command) => {
    const response = await send(command);
    responses.push(response);
    return response;
  };
  return responses;
}

/** An answer, success or pi's error response: never RpcClient's 30 s timeout, never a crash. */
async function answer<T>(call: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    const message = (error as Error).message;
    expect(message).not.toMatch(/^Timeout|Client not started/);
    return { ok: false, error: message };
  }
}

describe("zi --mode pi-rpc driven by pi 0.73.1's RpcClient, unchanged", () => {
  it("the issue's check: getState, setModel faux/echo, promptAndWait, getLastAssistantText, steer, abort, newSession, fork, getSessionStats", async () => {
    const client = await PiRpcZi.start();
    const state = await client.getState();
    expect(state).toMatchObject({ isStreaming: false, isCompacting: false, messageCount: 0, pendingMessageCount: 0, thinkingLevel: "off" });
    expect(typeof state.sessionId).toBe("string");
    const model = await client.setModel("faux", "echo");
    expect(model).toMatchObject({ provider: "faux", id: "echo" });
    const events = (await client.promptAndWait("hello")) as Event[];
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("agent_start");
    expect(types.at(-1)).toBe("agent_end");
    expect(types).toEqual(expect.arrayContaining(["turn_start", "message_start", "message_update", "message_end", "turn_end"]));
    expect(await client.getLastAssistantText()).toBe("Echo: hello");
    await client.steer("and then");
    await client.abort();
    const stats = await client.getSessionStats();
    expect(stats).toMatchObject({ userMessages: 1, assistantMessages: 1, totalMessages: 2, toolCalls: 0, toolResults: 0 });
    expect(stats.tokens.total).toBe(stats.tokens.input + stats.tokens.output + stats.tokens.cacheRead + stats.tokens.cacheWrite);
    // The session-tree methods behind fork and new_session: pi forks before the chosen user message and
    // hands its text back for editing; a new session starts empty.
    const forkable = await client.getForkMessages();
    expect(forkable.map((message) => message.text)).toEqual(["hello"]);
    expect(await client.fork(forkable[0].entryId)).toEqual({ text: "hello", cancelled: false });
    expect(await client.newSession()).toEqual({ cancelled: false });
    expect(await client.getSessionStats()).toMatchObject({ userMessages: 0, assistantMessages: 0, totalMessages: 0 });
  });

  it("every client method answers: a success, or pi's error response with Zi's reason", async () => {
    const client = await PiRpcZi.start({ args: ["--no-session", "--provider", "faux", "--model", "echo"] });
    await client.promptAndWait("first");
    const calls: [string, () => Promise<unknown>][] = [
      ["get_state", () => client.getState()],
      ["get_messages", () => client.getMessages()],
      ["set_model", () => client.setModel("faux", "echo")],
      ["cycle_model", () => client.cycleModel()],
      ["get_available_models", () => client.getAvailableModels()],
      ["set_thinking_level", () => client.setThinkingLevel("off")],
      ["cycle_thinking_level", () => client.cycleThinkingLevel()],
      ["set_steering_mode", () => client.setSteeringMode("one-at-a-time")],
      ["set_follow_up_mode", () => client.setFollowUpMode("one-at-a-time")],
      ["compact", () => client.compact()],
      ["set_auto_compaction", () => client.setAutoCompaction(false)],
      ["set_auto_retry", () => client.setAutoRetry(false)],
      ["abort_retry", () => client.abortRetry()],
      ["bash", () => client.bash("echo hi")],
      ["abort_bash", () => client.abortBash()],
      ["get_session_stats", () => client.getSessionStats()],
      ["export_html", () => client.exportHtml()],
      ["switch_session", () => client.switchSession("/nonexistent/session.jsonl")],
      ["get_fork_messages", () => client.getForkMessages()],
      ["fork", () => client.fork("nope")],
      ["clone", () => client.clone()],
      ["get_last_assistant_text", () => client.getLastAssistantText()],
      ["set_session_name", () => client.setSessionName("work")],
      ["get_commands", () => client.getCommands()],
      ["follow_up", () => client.followUp("later")],
      ["steer", () => client.steer("sooner")],
      ["abort", () => client.abort()],
      ["new_session", () => client.newSession()],
      ["prompt", () => client.prompt("again")],
    ];
    // The list covers pi's whole RpcCommand union, read from the installed package.
    expect(calls.map(([type]) => type).sort()).toEqual(PiRpcZi.commandUnion().sort());
    const responses = recordResponses(client);
    for (const [, call] of calls) await answer(call());
    expect(responses.map((response) => response.command)).toEqual(calls.map(([type]) => type));
    const byType = new Map(responses.map((response) => [response.command, response]));
    // What Zi honours succeeds; what it cannot says why, in pi's error shape.
    for (const type of ["get_state", "get_messages", "set_model", "get_available_models", "set_thinking_level", "cycle_thinking_level", "set_steering_mode", "set_follow_up_mode", "abort_retry", "get_session_stats", "get_last_assistant_text", "get_commands", "follow_up", "steer", "abort", "prompt"]) {
      expect([type, byType.get(type)!.success, byType.get(type)!.error]).toEqual([type, true, undefined]);
    }
    // Nothing is old enough to compact after one short exchange: refused with Zi's reason, as pi refuses.
    expect(byType.get("compact")).toMatchObject({ success: false, error: expect.stringContaining("nothing to compact") });
    for (const type of ["set_auto_compaction", "set_auto_retry", "bash", "abort_bash", "clone", "set_session_name"]) {
      expect(byType.get(type)).toEqual({ id: expect.any(String), type: "response", command: type, success: false, error: expect.stringMatching(new RegExp(`^${type} is not supported by Zi: .{20,}`)) });
    }
    for (const response of responses) expect(response.success === true || (typeof response.error === "string" && response.error.length > 10)).toBe(true);
    expect(byType.get("get_messages")!.data).toMatchObject({ messages: [{ role: "user" }, { role: "assistant", content: [{ type: "text", text: "Echo: first" }] }] });
    expect(byType.get("cycle_thinking_level")!.data).toBeNull();
    expect(byType.get("get_available_models")!.data).toMatchObject({ models: expect.arrayContaining([expect.objectContaining({ provider: "faux", id: "echo" })]) });
  });

  it("compact with customInstructions answers pi's CompactionResult; compaction_start/_end come with reason manual", async () => {
    // keepRecentTokens at its floor (1,024): a long first exchange leaves its prompt to summarise.
    const client = await PiRpcZi.start({ args: ["--no-session", "--model", "faux/echo"], settings: { compaction: { keepRecentTokens: 1024 } } });
    await client.promptAndWait(`first ${"word ".repeat(1000)}`);
    await client.promptAndWait("second");
    const events: Event[] = [];
    const stop = client.onEvent((event) => void events.push(event as Event));
    const result = await client.compact("keep the word PINEAPPLE");
    stop();
    // The echo model repeats the summariser's prompt: the transcript and the instructions reached it.
    expect(result.summary).toContain("[User]: first word");
    expect(result.summary).toContain("keep the word PINEAPPLE");
    expect(result).toEqual({ summary: result.summary, firstKeptEntryId: expect.any(String), tokensBefore: expect.any(Number) });
    expect(events.map((event) => event.type)).toEqual(["compaction_start", "compaction_end"]);
    expect(events[0]).toEqual({ type: "compaction_start", reason: "manual" });
    expect(events[1]).toMatchObject({ type: "compaction_end", reason: "manual", aborted: false, result: { summary: result.summary } });
    expect(await client.getState()).toMatchObject({ isCompacting: false, messageCount: 4 });
  });

  it("message_update carries the growing message and pi's text_start / text_delta / text_end; agent_end the run's messages", async () => {
    const client = await PiRpcZi.start({ args: ["--no-session", "--model", "faux/echo"] });
    const events = (await client.promptAndWait("stream me please")) as Event[];
    const updates = events.filter((event) => event.type === "message_update");
    const kinds = updates.map((event) => (event.assistantMessageEvent as { type: string }).type);
    expect(kinds[0]).toBe("text_start");
    expect(kinds.at(-1)).toBe("text_end");
    expect(kinds.slice(1, -1).every((kind) => kind === "text_delta")).toBe(true);
    let text = "";
    for (const update of updates.slice(1, -1)) {
      text += (update.assistantMessageEvent as { delta: string }).delta;
      const message = update.message as { content: { text: string }[] };
      expect(message.content[0]!.text).toBe(text);
      expect((update.assistantMessageEvent as { partial: unknown }).partial).toEqual(message);
    }
    expect((updates.at(-1)!.assistantMessageEvent as { content: string }).content).toBe(text);
    const end = events.at(-1)!;
    expect((end.messages as { role: string }[]).map((message) => message.role)).toEqual(["user", "assistant"]);
    // Zi-only events (activity_changed, entry_appended, ...) never reach a pi client.
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(["agent_start", "turn_start", "message_start", "message_update", "message_end", "turn_end", "agent_end"]));
  });

  it("prompt during a run needs streamingBehavior (pi's error); steer and follow_up queue; abort ends the run", async () => {
    const client = await PiRpcZi.start({ fauxScript: { responses: [{ text: "slow", delayMs: 60000 }] }, args: ["--no-session", "--model", "faux/scripted"] });
    const responses = recordResponses(client);
    await nextEvent(client, (event) => event.type === "turn_start", () => void client.prompt("go"));
    await client.prompt("again");
    expect(responses.at(-1)).toMatchObject({ command: "prompt", success: false, error: "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message." });
    const queued = nextEvent(client, (event) => event.type === "queue_update" && (event.followUp as string[]).length === 1);
    await client.followUp("after");
    expect(await queued).toEqual({ type: "queue_update", steering: [], followUp: ["after"] });
    expect((await client.getState()).pendingMessageCount).toBe(1);
    const ended = nextEvent(client, (event) => event.type === "agent_end");
    await client.abort();
    await ended;
    expect((await client.getState()).isStreaming).toBe(false);
  });

  it("a prompt's images reach the model as image parts; --append-system-prompt reaches its system prompt", async () => {
    const server = new OpenAICompatibleServer();
    await server.start();
    try {
      server.enqueue({ type: "text", chunks: ["a red pixel"] });
      const models = { providers: { local: { baseUrl: server.baseUrl, apiKey: "sk-local", models: [{ id: "vision", name: "Vision", input: ["text", "image"] }] } } };
      const client = await PiRpcZi.start({ models, args: ["--no-session", "--provider", "local", "--model", "vision", "--append-system-prompt", "Answer like a pirate."] });
      await client.promptAndWait("what is this?", [{ type: "image", data: PNG, mimeType: "image/png" }]);
      expect(await client.getLastAssistantText()).toBe("a red pixel");
      const messages = server.requests[0]!.body!.messages as { role: string; content: unknown }[];
      expect(messages.find((message) => message.role === "user")!.content).toEqual([
        { type: "text", text: "what is this?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      ]);
      expect(JSON.stringify(messages.find((message) => message.role === "system" || message.role === "developer"))).toContain("Answer like a pirate.");
    } finally {
      await server.stop();
    }
  });

  it("Zi's permission requests are pi select dialogs: Reject denies the call, Allow once runs it", async () => {
    const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });
    const client = await PiRpcZi.start({
      settings: { permissions: { default: "ask" } },
      fauxScript: { responses: [bash("echo first"), { text: "ok" }, bash("echo second"), { text: "done" }] },
      args: ["--no-session", "--model", "faux/scripted"],
    });
    const answerWith = (value: string) =>
      client.onEvent((event) => {
        const request = event as unknown as { type: string; id: string; method: string; options: string[]; title: string };
        if (request.type !== "extension_ui_request" || request.method !== "select") return;
        expect(request.options).toEqual(["Allow once", "Always allow", "Reject"]);
        expect(request.title).toContain("echo");
        PiRpcZi.write(client, { type: "extension_ui_response", id: request.id, value });
      });
    let stop = answerWith("Reject");
    const denied = (await client.promptAndWait("one")) as Event[];
    stop();
    expect(denied.find((event) => event.type === "tool_execution_end")).toMatchObject({ toolName: "bash", isError: true });
    stop = answerWith("Allow once");
    const allowed = (await client.promptAndWait("two")) as Event[];
    stop();
    const end = allowed.find((event) => event.type === "tool_execution_end") as unknown as { isError: boolean; result: { content: { text: string }[] } };
    expect(end.isError).toBe(false);
    expect(end.result.content[0]!.text).toContain("second");
  });
});

describe("extension commands", () => {
  it("get_commands lists Zi's extension commands; a prompt /name args runs one and its feedback is a notify", async () => {
    const client = await PiRpcZi.start({ args: ["--no-session", "--model", "faux/echo", "--extension", join(process.cwd(), "test/fixtures/record-outcome.extension.mjs")] });
    const commands = await client.getCommands();
    expect(commands).toEqual(
      expect.arrayContaining([{ name: "record", description: "records an operation outcome", source: "extension", sourceInfo: { path: "<cli>", source: "cli", scope: "user", origin: "top-level" } }]),
    );
    const notified = nextEvent(client, (event) => event.type === "extension_ui_request" && event.method === "notify");
    await client.prompt("/record thing");
    expect(await notified).toEqual({ type: "extension_ui_request", id: expect.any(String), method: "notify", message: "recorded thing", notifyType: "info" });
    // The command is not a prompt: nothing reached the transcript.
    expect((await client.getState()).messageCount).toBe(0);
  });
});

describe("pi's framing, ids and error shapes", () => {
  it("a record over Zi's 16 MiB bound is answered as pi's parse error and ends the connection (exit 1)", () => {
    const run = PiRpcZi.run(["--mode", "pi-rpc", "--no-session"], `${JSON.stringify({ type: "prompt", message: "x".repeat(16 * 1024 * 1024) })}\n`);
    expect(run.status).toBe(1);
    const [response] = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Event);
    expect(response).toEqual({ type: "response", command: "parse", success: false, error: expect.stringMatching(/^Failed to parse command: .*16777216/) });
  });

  it("ids are echoed as sent; an unknown command answers without one; bad JSON is a parse error; U+2028 and CRLF are fine", async () => {
    const client = await PiRpcZi.start({ args: ["--no-session", "--model", "faux/echo"] });
    const responses = collect(client, 4, (event) => event.type === "response");
    // Listened for before the prompt is written: faux/echo's run may end before the responses are read.
    const ended = nextEvent(client, (event) => event.type === "agent_end");
    const raw = (client as unknown as { process: { stdin: NodeJS.WritableStream } }).process.stdin;
    raw.write('{"id": 7, "type": "get_state"}\r\n');
    raw.write('{"id": "u1", "type": "no_such_command"}\n');
    raw.write("{not json\n");
    raw.write(`${JSON.stringify({ id: "p", type: "prompt", message: "line\u2028separator" })}\n`);
    const [state, unknown, parse, prompt] = await responses;
    expect(state).toMatchObject({ id: 7, command: "get_state", success: true });
    expect(unknown).toEqual({ type: "response", command: "no_such_command", success: false, error: "Unknown command: no_such_command" });
    expect(parse).toMatchObject({ type: "response", command: "parse", success: false, error: expect.stringMatching(/^Failed to parse command: /) });
    expect(prompt).toEqual({ id: "p", type: "response", command: "prompt", success: true });
    await ended;
    expect(await client.getLastAssistantText()).toBe("Echo: line\u2028separator");
  });

  it("a client that writes 5,000 commands at once gets 5,000 answers in order: none dropped, none refused", async () => {
    const home = PiRpcZi.home();
    const child = spawn(process.execPath, [ZI_BIN, "--mode", "pi-rpc", "--no-session"], { cwd: home, env: { PATH: process.env.PATH ?? "", ZI_HOME: home, HOME: home } });
    const count = 5000;
    child.stdin.end(Array.from({ length: count }, (_, i) => `${JSON.stringify({ id: `q${i}`, type: "get_state" })}\n`).join(""));
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => void (text += chunk.toString("utf8")));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const responses = text.trimEnd().split("\n").map((line) => JSON.parse(line) as Response);
    expect(responses.map((response) => response.id)).toEqual(Array.from({ length: count }, (_, i) => `q${i}`));
    expect(responses.every((response) => response.success)).toBe(true);
  });

  it("Zi's own bounds answer in pi's shape: set_model of an unknown model, a prompt over 8 MiB", async () => {
    const client = await PiRpcZi.start({ args: ["--no-session", "--model", "faux/echo"] });
    await expect(client.setModel("nowhere", "nothing")).rejects.toThrow("Model not found: nowhere/nothing");
    const responses = recordResponses(client);
    await client.prompt("x".repeat(8 * 1024 * 1024 + 1));
    expect(responses.at(-1)).toMatchObject({ command: "prompt", success: false, error: expect.stringMatching(/params\.text/) });
    expect((await client.getState()).messageCount).toBe(0);
  });

  it("pi's examples from docs/rpc.md, replayed as written: every command example gets its one response", async () => {
    const doc = readFileSync(join(PI_PACKAGE, "docs/rpc.md"), "utf8");
    const examples = [...doc.matchAll(/```json\n([\s\S]*?)```/g)]
      .flatMap((block) => block[1]!.trim().split("\n").filter((line) => line.trim().startsWith("{") && line.trim().endsWith("}")))
      .map((line) => {
        try {
          return JSON.parse(line) as Event;
        } catch {
          return undefined;
        }
      })
      .filter((record): record is Event => record !== undefined && PiRpcZi.commandUnion().includes(record.type));
    expect(examples.length).toBeGreaterThan(25);
    // A quiet session for the replay: the examples' model names are pi's, not Zi's.
    const client = await PiRpcZi.start({ args: ["--no-session", "--model", "faux/echo"] });
    const answered = collect(client, examples.length, (event) => event.type === "response");
    for (const example of examples) PiRpcZi.write(client, example);
    const seen = await answered;
    expect(seen.map((response) => response.command).sort()).toEqual(examples.map((example) => example.type).sort());
    for (const response of seen) {
      if (response.success === false) expect(typeof response.error).toBe("string");
      else expect(response.success).toBe(true);
    }
    const echoed = seen.filter((response) => response.id === "req-1");
    expect(echoed).toEqual([{ id: "req-1", type: "response", command: "prompt", success: true }]);
  });
});

describe("pi's client examples from docs/rpc.md, with only the command swapped", () => {
  it("the Python client prints the streamed reply and stops at agent_end", () => {
    const doc = readFileSync(join(PI_PACKAGE, "docs/rpc.md"), "utf8");
    const python = /## Example: Basic Client \(Python\)\n\n```python\n([\s\S]*?)```/.exec(doc)![1]!;
    const command = '["pi", "--mode", "rpc", "--no-session"]';
    expect(python).toContain(command);
    const home = PiRpcZi.home();
    const swapped = python.replace(command, JSON.stringify([process.execPath, ZI_BIN, "--mode", "pi-rpc", "--no-session", "--model", "faux/echo"]));
    const run = spawnSync("python3", ["-c", swapped], { cwd: home, env: { PATH: process.env.PATH ?? "", ZI_HOME: home, HOME: home }, encoding: "utf8", timeout: 20000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("Echo: Hello!\n");
  });
});

describe("pi's command line", () => {
  it("an unknown pi flag is refused with pi's wording and exit code", () => {
    const run = PiRpcZi.run(["--mode", "pi-rpc", "--no-session", "--bogus", "value", "--other"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Error: Unknown options: --bogus, --other");
    expect(run.stdout).toBe("");
    expect(PiRpcZi.run(["--mode", "pi-rpc", "-x"]).stderr).toContain("Error: Unknown option: -x");
  });

  it("--model that matches nothing is pi's error at start; an invalid --thinking is pi's warning", () => {
    const missing = PiRpcZi.run(["--mode", "pi-rpc", "--no-session", "--model", "faux/nothing-like-it"]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Error: Model "nothing-like-it" not found.');
    const warned = PiRpcZi.run(["--mode", "pi-rpc", "--no-session", "--thinking", "loud"], `${JSON.stringify({ type: "get_state" })}\n`);
    expect(warned.status).toBe(0);
    expect(warned.stderr).toContain('Warning: Invalid thinking level "loud". Valid values: off, minimal, low, medium, high, xhigh');
    expect(JSON.parse(warned.stdout)).toMatchObject({ type: "response", command: "get_state", success: true });
  });

  it("get_state's sessionFile is the journal: a new one under ZI_HOME/sessions, and the one --session resumes", async () => {
    const home = PiRpcZi.home();
    const first = await PiRpcZi.start({ home, args: ["--model", "faux/echo"] });
    await first.promptAndWait("remember me");
    const { sessionFile, sessionId } = await first.getState();
    expect(readdirSync(join(home, "sessions")).filter((name) => name.endsWith(".jsonl")).map((name) => join(home, "sessions", name))).toEqual([sessionFile]);
    expect((await first.getSessionStats()).sessionFile).toBe(sessionFile);
    await first.stop();
    const resumed = await PiRpcZi.start({ home, args: ["--session", sessionFile!] });
    expect(await resumed.getState()).toMatchObject({ sessionFile, sessionId, messageCount: 2 });
    expect(await resumed.getLastAssistantText()).toBe("Echo: remember me");
    expect((await PiRpcZi.start({ args: ["--no-session"] }).then((client) => client.getState())).sessionFile).toBeUndefined();
  });

  it("--session-dir holds the new session's journal; --tools denies the calls of every other tool", async () => {
    const home = PiRpcZi.home();
    const sessions = join(home, "my-sessions");
    const client = await PiRpcZi.start({
      home,
      fauxScript: { responses: [{ toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { text: "done" }] },
      args: ["--session-dir", sessions, "--model", "faux/scripted", "--tools", "read,ls"],
    });
    const events = (await client.promptAndWait("run it")) as Event[];
    expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({ toolName: "bash", isError: true });
    expect(readdirSync(sessions).filter((name) => name.endsWith(".jsonl"))).toHaveLength(1);
  });
});
