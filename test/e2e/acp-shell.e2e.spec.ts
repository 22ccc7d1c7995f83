import { afterEach, describe, expect, it } from "@jest/globals";
import { readFileSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AcpZi } from "../support/acp-zi.js";
import { McpHttpServer } from "../support/mcp-http-server.js";

const KEY = "sk-acp-test-0123456789abcdefghijklmnopqrstuv";

/** The descriptors Zi holds open on files under `dir`. */
function openFilesUnder(pid: number, dir: string): string[] {
  return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return [];
    }
  });
}

// Every message each Zi wrote in the test, checked against the v1 schema shipped in the SDK.
afterEach(() => expect(AcpZi.killAllChecked()).toEqual([]));

describe("zi --mode acp on the process shell", () => {
  it("scrubs a provider key from ACP frames: the echoed reply and its chunks reach the editor as [redacted]", async () => {
    const zi = await AcpZi.start({ env: { OPENAI_API_KEY: KEY } });
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    expect((await zi.prompt(sessionId, `my key is ${KEY}`)).stopReason).toBe("end_turn");
    expect(zi.messageText(sessionId)).toBe("Echo: my key is [redacted]");
    expect(zi.rawLines.join("\n")).not.toContain(KEY.slice(0, 20));
    expect(await zi.close()).toBe(0);
  });

  it("a throwing extension timer is reported in its session, and every session keeps answering", async () => {
    const dir = AcpZi.dir("zi-acp-ext-");
    const extension = join(dir, "throws-later.mjs");
    writeFileSync(extension, 'export default function (zi) { zi.registerCommand("arm", { handler: async () => { setTimeout(() => { throw new Error("timer boom"); }, 0); return { message: "armed" }; } }); }\n');
    const zi = await AcpZi.start({ extensions: [extension] });
    await zi.initialize();
    const first = await zi.newSession(AcpZi.project());
    const second = await zi.newSession(AcpZi.project());
    expect((await zi.prompt(first.sessionId, "/arm")).stopReason).toBe("end_turn");
    await zi.until(() => zi.stderr.includes("timer boom"));
    for (const { sessionId } of [first, second]) expect((await zi.prompt(sessionId, "still there?")).stopReason).toBe("end_turn");
    expect(zi.child.exitCode).toBeNull();
    expect(await zi.close()).toBe(0);
  });

  it("an idle session/cancel does not cancel the next prompt", async () => {
    const zi = await AcpZi.start();
    await zi.initialize();
    const { sessionId } = await zi.newSession(AcpZi.project());
    for (let round = 0; round < 10; round++) {
      await zi.agent.notify("session/cancel", { sessionId });
      expect((await zi.prompt(sessionId, `round ${round}`)).stopReason).toBe("end_turn");
    }
    expect(await zi.close()).toBe(0);
  });

  it("queues a request sent right after initialize, before its answer", async () => {
    const zi = await AcpZi.start();
    const init = zi.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const created = zi.agent.request("session/new", { cwd: AcpZi.project(), mcpServers: [] });
    expect((await init).protocolVersion).toBe(1);
    expect((await created).sessionId).toEqual(expect.any(String));
    expect(await zi.close()).toBe(0);
  });

  it("60 concurrent session/load of one session leave one live session (one journal handle)", async () => {
    const zi = await AcpZi.start();
    await zi.initialize();
    const cwd = AcpZi.project();
    const { sessionId } = await zi.newSession(cwd);
    await zi.prompt(sessionId, "hello");
    await zi.agent.request("session/close", { sessionId });
    const sessions = join(zi.home, "sessions");
    expect(openFilesUnder(zi.child.pid!, sessions)).toEqual([]);
    const loads = await Promise.allSettled(Array.from({ length: 60 }, () => zi.agent.request("session/load", { sessionId, cwd, mcpServers: [] })));
    expect(loads.filter((load) => load.status === "rejected")).toEqual([]);
    expect(openFilesUnder(zi.child.pid!, sessions)).toHaveLength(1);
    expect((await zi.prompt(sessionId, "after the loads")).stopReason).toBe("end_turn");
    expect(await zi.close()).toBe(0);
  });

  it("keeps the session's mode across reconnects: journaled, and restored by session/load and session/resume in a new process", async () => {
    const first = await AcpZi.start();
    await first.initialize();
    const cwd = AcpZi.project();
    const { sessionId, modes } = await first.newSession(cwd);
    expect(modes?.currentModeId).toBe("ask");
    await first.agent.request("session/set_mode", { sessionId, modeId: "full-access" });
    await first.prompt(sessionId, "hello");
    expect(await first.close()).toBe(0);

    const second = await AcpZi.start({ home: first.home });
    await second.initialize();
    const loaded = await second.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe("full-access");
    await second.agent.request("session/set_mode", { sessionId, modeId: "accept-edits" });
    expect(await second.close()).toBe(0);

    const third = await AcpZi.start({ home: first.home });
    await third.initialize();
    const resumed = await third.agent.request("session/resume", { sessionId, cwd, mcpServers: [] });
    expect(resumed.modes?.currentModeId).toBe("accept-edits");
    expect(await third.close()).toBe(0);
  });

  it("session/list is Zi's session.list: 3,000 journals all listed, newest first, under an open-file limit of 256", async () => {
    const first = await AcpZi.start();
    await first.initialize();
    const cwd = AcpZi.project();
    const { sessionId } = await first.newSession(cwd);
    await first.prompt(sessionId, "the original");
    expect(await first.close()).toBe(0);
    const sessions = join(first.home, "sessions");
    const [name] = readdirSync(sessions).filter((file) => file.endsWith(".jsonl"));
    const journal = readFileSync(join(sessions, name!), "utf8");
    for (let copy = 0; copy < 2999; copy++) {
      const id = `copy-${String(copy).padStart(4, "0")}-${sessionId.slice(0, 8)}`;
      writeFileSync(join(sessions, name!.replace(sessionId, id)), journal.split(sessionId).join(id));
    }
    const zi = await AcpZi.start({ home: first.home, nofile: 256 });
    await zi.initialize();
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await zi.agent.request("session/list", cursor === undefined ? { cwd } : { cwd, cursor });
      listed.push(...page.sessions.map((session) => session.sessionId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(new Set(listed).size).toBe(3000);
    expect(listed).toContain(sessionId);
    expect(await zi.close()).toBe(0);
  });

  it("shutdown is quiet: no \"SSE stream disconnected\" from an HTTP MCP server, no failed session/request_permission for a question still open", async () => {
    const http = new McpHttpServer();
    const url = await http.start();
    try {
      let asked!: () => void;
      const question = new Promise<void>((resolve) => (asked = resolve));
      const zi = await AcpZi.start({
        settings: { defaultModel: "faux/scripted" },
        fauxScript: { responses: [{ toolCalls: [{ id: "w1", name: "write", arguments: { path: "a.txt", content: "A" } }] }, { text: "done" }] },
        // Never answered: the question is still open when the editor goes away.
        onPermission: () => (asked(), new Promise<never>(() => undefined)),
      });
      await zi.initialize();
      const { sessionId } = await zi.newSession(AcpZi.project(), [{ type: "http", name: "remote", url, headers: [] }]);
      // The model's first call waits for the session's MCP servers: by the question, the server is connected.
      void zi.prompt(sessionId, "write it").catch(() => undefined);
      await question;
      expect(http.headers.length).toBeGreaterThan(0);
      expect(await zi.close()).toBe(0);
      expect(zi.stderr).not.toContain("SSE stream disconnected");
      expect(zi.stderr).not.toContain("session/request_permission failed");
    } finally {
      await http.stop();
    }
  });
});
