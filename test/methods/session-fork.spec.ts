import "reflect-metadata";
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { resolveHandler } from "../../core/testing/testing-api.js";
import { ParamsValidator } from "../../core/kernel/params-validator.js";
import { RpcError } from "../../core/kernel/rpc-error.js";
import { SESSIONS, type SessionsPort } from "../../core/ports/sessions.port.js";
import { SessionJournal } from "../../core/journal/session-journal.js";
import type { AgentSession } from "../../core/session/agent-session.js";
import { SessionTree, type SessionTreeOptions } from "../../core/session/session-tree.js";
import { ForkMethod } from "../../methods/session/fork.method.js";
import { ForkParams } from "../../methods/session/fork.params.js";
import { assistantMessage, tempDir, userMessage } from "../fixtures/journal/journal-fixtures.js";

const SWITCHED = { sessionId: "s2", path: "/h/sessions/x_s2.jsonl", leafId: "e2", messageCount: 2 };

function invalidFields(params: Record<string, unknown>): string[] {
  const validator = new ParamsValidator();
  validator.prepare(ForkParams);
  try {
    validator.admit(ForkParams, params);
    return [];
  } catch (error) {
    expect((error as RpcError).code).toBe("invalid_request");
    return ((error as RpcError).details as readonly { field: string }[]).map((detail) => detail.field);
  }
}

describe("session.fork's switch option", () => {
  it("the handler switches by default and passes switch: false through", async () => {
    const fork = jest.fn<SessionsPort["fork"]>(async () => SWITCHED);
    const handler = resolveHandler(ForkMethod, { [SESSIONS]: { fork } as unknown as SessionsPort });
    await expect(handler.handle({ entryId: "e2" })).resolves.toEqual(SWITCHED);
    await expect(handler.handle({ entryId: "e2", switch: false })).resolves.toEqual(SWITCHED);
    await expect(handler.handle({ entryId: "e2", switch: true })).resolves.toEqual(SWITCHED);
    expect(fork.mock.calls).toEqual([
      ["e2", true],
      ["e2", false],
      ["e2", true],
    ]);
  });

  it("params: switch is an optional boolean", () => {
    expect(invalidFields({ entryId: "e" })).toEqual([]);
    expect(invalidFields({ entryId: "e", switch: false })).toEqual([]);
    expect(invalidFields({ entryId: "e", switch: "no" })).toEqual(["params.switch"]);
    expect(invalidFields({ entryId: "e", switch: null })).toEqual(["params.switch"]);
  });
});

describe("SessionTree.fork without switching", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterEach(() => cleanup());

  function tree(sessionsDir: string | null) {
    const journal = SessionJournal.create(dir, "source", "/p", { fsync: false });
    journal.append({ type: "message", message: userMessage("one") });
    const answer = journal.append({ type: "message", message: assistantMessage("re one") });
    const session = { assertIdle: jest.fn(), replaceJournal: jest.fn() };
    const options = { sessionsDir, cwd: "/p", exportsDir: dir, redact: (line: string) => line } as unknown as SessionTreeOptions;
    return { journal, answer, session, tree: new SessionTree(options, session as unknown as AgentSession, journal) };
  }

  it("writes the path to the entry as a new journal, names it, and leaves the connection's session and journal as they were", async () => {
    const { journal, answer, session, tree: sessions } = tree(dir);
    const before = readFileSync(journal.file!, "utf8");
    const fork = await sessions.fork(answer.id, false);
    expect(session.assertIdle).toHaveBeenCalled();
    expect(session.replaceJournal).not.toHaveBeenCalled();
    expect(sessions.current).toBe(journal);
    expect(readFileSync(journal.file!, "utf8")).toBe(before);
    expect(fork).toMatchObject({ leafId: answer.id, messageCount: 2 });
    expect(fork.sessionId).not.toBe("source");
    expect(readdirSync(dir).sort()).toEqual([journal.file!, fork.path!].map((file) => file.slice(dir.length + 1)).sort());
    // Closed, and whole: it opens as any journal does.
    const opened = SessionJournal.open(fork.path!, { fsync: false });
    expect(opened.buildContextMessages().map((message) => (message as { content: unknown }).content)).toEqual(["one", [{ type: "text", text: "re one" }]]);
    expect(opened.forkedFrom).toBe(journal.file);
    expect(join(dir, readdirSync(dir).find((name) => name.endsWith(`_${fork.sessionId}.jsonl`))!)).toBe(fork.path);
    opened.close();
    journal.close();
  });

  it("refuses under --no-session (no file to name), and an unknown entry is not_found", async () => {
    const { journal, answer, tree: inMemory } = tree(null);
    await expect(inMemory.fork(answer.id, false)).rejects.toMatchObject({ code: "operation_failed", message: expect.stringContaining("--no-session") });
    await expect(inMemory.fork("nope", false)).rejects.toMatchObject({ code: "not_found" });
    journal.close();
  });

  it("refuses while the session runs, as a switching fork does", async () => {
    const { journal, answer, session, tree: sessions } = tree(dir);
    session.assertIdle.mockImplementation(() => {
      throw new RpcError("operation_failed", "session is running; wait until it is idle");
    });
    await expect(sessions.fork(answer.id, false)).rejects.toMatchObject({ code: "operation_failed" });
    expect(readdirSync(dir)).toHaveLength(1);
    journal.close();
  });
});
