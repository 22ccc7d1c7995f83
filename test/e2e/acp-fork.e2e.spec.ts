import { afterEach, describe, expect, it } from "@jest/globals";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as unstable from "@agentclientprotocol/sdk/unstable";
import { AcpZi } from "../support/acp-zi.js";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";

let servers: OpenAICompatibleServer[] = [];

afterEach(async () => {
  // Every message Zi wrote, checked against the SDK's v1 schema; session/fork's own against the
  // unstable v1 schema the SDK ships beside it (test/support/acp-zi.ts), where alone it is defined.
  const problems = AcpZi.killAllChecked();
  for (const server of servers.splice(0)) await server.stop();
  expect(problems).toEqual([]);
});

/** The conversation the provider received, system prompt left out: `role:text` per message. */
function conversation(server: OpenAICompatibleServer, index: number): string[] {
  const messages = (server.requests[index]!.body!.messages ?? []) as { role: string; content: unknown }[];
  return messages
    .filter((message) => message.role === "user" || message.role === "assistant")
    .map((message) => `${message.role}:${typeof message.content === "string" ? message.content : (message.content as { text?: string }[]).map((part) => part.text ?? "").join("")}`);
}

async function setup() {
  const server = new OpenAICompatibleServer();
  servers.push(server);
  await server.start();
  const home = AcpZi.dir();
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.baseUrl, apiKey: "sk-local", models: [{ id: "m", name: "M", input: ["text"] }] } } }));
  const zi = await AcpZi.start({ home, settings: { defaultModel: "local/m" } });
  const cwd = AcpZi.project();
  return { server, zi, home, cwd };
}

const journalOf = (home: string, sessionId: string): string => join(home, "sessions", readdirSync(join(home, "sessions")).find((name) => name.endsWith(`_${sessionId}.jsonl`))!);

const fork = (zi: AcpZi, params: unstable.ForkSessionRequest) => zi.agent.request<unstable.ForkSessionResponse, unstable.ForkSessionRequest>("session/fork", params);

describe("ACP session/fork (UNSTABLE in the SDK), driven by the official SDK client", () => {
  it("fork A → B: B's provider request holds A's first exchange, A's journal is untouched by B, and each goes on alone", async () => {
    const { server, zi, home, cwd } = await setup();
    const init = await zi.initialize();
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ fork: {} });

    const { sessionId: a } = await zi.newSession(cwd);
    server.enqueue({ type: "text", chunks: ["hi from A"] });
    expect((await zi.prompt(a, "hello")).stopReason).toBe("end_turn");

    const forked = await fork(zi, { sessionId: a, cwd, mcpServers: [] });
    const b = forked.sessionId;
    expect(b).not.toBe(a);
    expect(forked.modes?.currentModeId).toBe("ask");
    expect(forked.configOptions?.find((option) => option.id === "model")).toMatchObject({ currentValue: "local/m" });
    // No replay: the client asked for a new session.
    expect(zi.updatesOf(b).filter((update) => update.sessionUpdate === "user_message_chunk" || update.sessionUpdate === "agent_message_chunk")).toEqual([]);

    const aJournal = journalOf(home, a);
    const aBefore = readFileSync(aJournal, "utf8");
    const bHeader = JSON.parse(readFileSync(journalOf(home, b), "utf8").split("\n")[0]!);
    expect(bHeader).toMatchObject({ type: "session", sessionId: b, cwd, forkedFrom: aJournal });

    server.enqueue({ type: "text", chunks: ["re second"] });
    const mark = zi.updates.length;
    expect((await zi.prompt(b, "second")).stopReason).toBe("end_turn");
    expect(zi.messageText(b, mark)).toBe("re second");
    expect(conversation(server, 1)).toEqual(["user:hello", "assistant:hi from A", "user:second"]);
    expect(readFileSync(aJournal, "utf8")).toBe(aBefore);
    expect(readFileSync(journalOf(home, b), "utf8")).toContain("re second");

    // A goes on from its own leaf: B's exchange is not in it.
    server.enqueue({ type: "text", chunks: ["re again"] });
    expect((await zi.prompt(a, "again")).stopReason).toBe("end_turn");
    expect(conversation(server, 2)).toEqual(["user:hello", "assistant:hi from A", "user:again"]);

    const listed = await zi.agent.request("session/list", { cwd });
    expect(listed.sessions.map((session) => session.sessionId).sort()).toEqual([a, b].sort());
  });

  it("refuses an unknown session, another cwd and a relative cwd with -32602, and a session running a prompt with -32600", async () => {
    // A reply at 2 tokens a second that the cancel below ends long before it could finish.
    const zi = await AcpZi.start({ settings: { defaultModel: "faux/scripted" }, fauxScript: { responses: [{ text: "slow ".repeat(2000), tokensPerSecond: 2 }] } });
    const cwd = AcpZi.project();
    await zi.initialize();
    const { sessionId } = await zi.newSession(cwd);
    await expect(fork(zi, { sessionId: "no-such-session", cwd })).rejects.toMatchObject({ code: -32602 });
    await expect(fork(zi, { sessionId, cwd: AcpZi.dir("zi-acp-other-") })).rejects.toMatchObject({ code: -32602 });
    await expect(fork(zi, { sessionId, cwd: "relative" })).rejects.toMatchObject({ code: -32602 });

    const running = zi.prompt(sessionId, "long");
    await zi.until(() => zi.messageText(sessionId).length > 0);
    await expect(fork(zi, { sessionId, cwd })).rejects.toMatchObject({ code: -32600 });
    await zi.agent.notify("session/cancel", { sessionId });
    expect((await running).stopReason).toBe("cancelled");
    // Idle again: the fork is taken (an empty-but-started session forks as what it journaled).
    await expect(fork(zi, { sessionId, cwd })).resolves.toMatchObject({ sessionId: expect.any(String) });
  });

  it("the unstable schema's `acp` MCP transport (which the unstable agent parses) is reported as not connected, never dropped", async () => {
    const zi = await AcpZi.start();
    await zi.initialize();
    const servers = [{ type: "acp", name: "editor-side", serverId: "s1" }] as unknown as Parameters<AcpZi["newSession"]>[1];
    const { sessionId } = await zi.newSession(AcpZi.project(), servers);
    await zi.until(() => zi.messageText(sessionId).includes("MCP servers not connected"));
    expect(zi.messageText(sessionId)).toBe("MCP servers not connected: editor-side. editor-side: ACP servers are not supported; use Streamable HTTP or stdio\n");
  });
});
