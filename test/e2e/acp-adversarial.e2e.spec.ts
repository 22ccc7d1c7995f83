import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { AcpZi } from "../support/acp-zi.js";
import { CRAFTED } from "../support/adversarial-commands.js";

// Every message each Zi wrote in the test, checked against the v1 schema shipped in the SDK.
afterEach(() => expect(AcpZi.killAllChecked()).toEqual([]));

describe("ACP after \"Always allow\" on ls and git status: the crafted commands still ask (official SDK client)", () => {
  it("every crafted command raises session/request_permission, and rejected, none of them runs", async () => {
    const cwd = AcpZi.dir("zi-acp-adversarial-");
    mkdirSync(cwd, { recursive: true });
    const turn = (id: string, command: string) => [{ toolCalls: [{ id, name: "bash", arguments: { command } }] }, { text: "ok" }];
    const asked: acp.RequestPermissionRequest[] = [];
    const zi = await AcpZi.start({
      settings: { defaultModel: "faux/scripted" },
      fauxScript: { responses: [...turn("ls", "ls"), ...turn("git", "git status"), ...turn("ls2", "ls -la"), ...CRAFTED.flatMap(([command], index) => turn(`c${index}`, command))] },
      onPermission: (request) => {
        asked.push(request);
        const first = request.toolCall.toolCallId === "ls" || request.toolCall.toolCallId === "git";
        return { outcome: { outcome: "selected", optionId: first ? "allow_always" : "reject_once" } };
      },
    });
    await zi.initialize();
    const { sessionId } = await zi.newSession(cwd);
    for (let i = 0; i < CRAFTED.length + 3; i++) expect((await zi.prompt(sessionId, `p${i}`)).stopReason).toBe("end_turn");
    // Asked for ls and git status once (then always allowed: `ls -la` runs unasked), and for every crafted command.
    expect(asked.map((request) => request.toolCall.toolCallId)).toEqual(["ls", "git", ...CRAFTED.map((_, index) => `c${index}`)]);
    for (const [, creates] of CRAFTED) expect([creates, existsSync(join(cwd, creates))]).toEqual([creates, false]);
    expect(zi.updatesOf(sessionId)).toContainEqual(expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: "ls2", status: "completed" }));
    expect(readdirSync(cwd)).toEqual([]);
  }, 60_000);
});

describe("ACP in Accept edits: an edit in the project runs, a git hook or the project's settings ask (official SDK client)", () => {
  it("write src/a.ts runs unasked; write .git/hooks/pre-commit and .zi/settings.json raise session/request_permission and, rejected, write nothing", async () => {
    const cwd = AcpZi.dir("zi-acp-protected-");
    mkdirSync(join(cwd, ".git", "hooks"), { recursive: true });
    const write = (id: string, path: string) => [{ toolCalls: [{ id, name: "write", arguments: { path, content: "#!/bin/sh\ntouch PWNED\n" } }] }, { text: "ok" }];
    const asked: string[] = [];
    const zi = await AcpZi.start({
      settings: { defaultModel: "faux/scripted" },
      fauxScript: { responses: [...write("src", "src/a.ts"), ...write("hook", ".git/hooks/pre-commit"), ...write("settings", ".zi/settings.json")] },
      onPermission: (request) => {
        asked.push(request.toolCall.toolCallId);
        return { outcome: { outcome: "selected", optionId: "reject_once" } };
      },
    });
    await zi.initialize();
    const { sessionId } = await zi.newSession(cwd);
    await zi.agent.request("session/set_mode", { sessionId, modeId: "accept-edits" });
    for (let i = 0; i < 3; i++) expect((await zi.prompt(sessionId, `p${i}`)).stopReason).toBe("end_turn");
    expect(asked).toEqual(["hook", "settings"]);
    expect([existsSync(join(cwd, "src", "a.ts")), existsSync(join(cwd, ".git", "hooks", "pre-commit")), existsSync(join(cwd, ".zi"))]).toEqual([true, false, false]);
  }, 60_000);
});
