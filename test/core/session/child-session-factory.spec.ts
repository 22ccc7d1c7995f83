import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChildSessionFactory } from "../../../core/session/child-session-factory.js";
import { FauxRuntime } from "../../support/faux-runtime.js";

const runtimes: FauxRuntime[] = [];
afterEach(() => runtimes.splice(0).forEach((runtime) => runtime.dispose()));

async function factory(journalDir: string | null) {
  const runtime = await FauxRuntime.create();
  runtimes.push(runtime);
  return { runtime, factory: new ChildSessionFactory({ runtime, cwd: "/work/project", journalDir, retry: { maxAttempts: 0 } }) };
}

describe("child sessions", () => {
  it("start empty with the given prompt, model, thinking and tools, and label every model call with the profile", async () => {
    const { runtime, factory: children } = await factory(null);
    runtime.respond(runtime.text("child reply"));
    let boundTo: unknown;
    const child = await children.create({
      agent: "explore",
      systemPrompt: "You explore.",
      model: { provider: "faux", id: "thinker" },
      thinkingLevel: "low",
      tools: (session) => {
        boundTo = session;
        return [{ name: "probe", description: "d", parameters: { type: "object" }, execute: async () => ({ content: [] }) }];
      },
    });
    expect(boundTo).toBe(child.session);
    expect(child.journalFile).toBeNull();
    expect(child.session.getState()).toMatchObject({ sessionId: child.sessionId, messageCount: 0, thinkingLevel: "low", model: { type: "selected", id: "thinker" } });
    expect(child.session.toolList().map((tool) => tool.name)).toEqual(["probe"]);
    await child.session.prompt({ delivery: "direct", text: "the task", completionId: "c" });
    const idle = await child.session.awaitIdle("c", new AbortController().signal);
    expect(idle).toMatchObject({ completion: { text: "child reply" } });
    expect(runtime.options.map((options) => options.agent)).toEqual(["explore"]);
    expect(runtime.contexts[0]).toMatchObject({ systemPrompt: "You explore.", messages: [{ role: "user", content: [{ type: "text", text: "the task" }] }] });
    await child.close();
    await child.close();
    expect(child.session.getState().activity).toEqual({ type: "disposed" });
  });

  it("writes a persistent parent's children as session files in the given directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zi-children-"));
    const { factory: children } = await factory(dir);
    const child = await children.create({ agent: "worker", systemPrompt: "p", model: { provider: "faux", id: "plain" }, thinkingLevel: "off", tools: () => [] });
    expect(readdirSync(dir)).toEqual([expect.stringContaining(child.sessionId)]);
    expect(child.journalFile).toBe(join(dir, readdirSync(dir)[0]!));
    await child.close();
    expect(JSON.parse(readFileSync(child.journalFile!, "utf8").split("\n")[0]!)).toMatchObject({ type: "session", sessionId: child.sessionId });
  });

  it("closes the child again when its model cannot be selected", async () => {
    const { factory: children } = await factory(null);
    await expect(children.create({ agent: "a", systemPrompt: "p", model: { provider: "faux", id: "nope" }, thinkingLevel: "off", tools: () => [] })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
