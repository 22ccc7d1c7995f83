import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SettingsStore } from "../../../core/config/settings-store.js";
import { ZiPaths } from "../../../core/config/zi-paths.js";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import { ModelRegistry } from "../../../core/models/model-registry.js";
import { AgentSession } from "../../../core/session/agent-session.js";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import type { AgentSessionEvent } from "../../../core/wire/session-types.js";

const noteTool: AgentTool = {
  name: "note",
  description: "takes a note",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: async (args) => ({ content: [{ type: "text", text: `noted ${String(args.text)}` }] }),
};

const never = (): AbortSignal => new AbortController().signal;

/** The real ModelRegistry, SettingsStore and file journal, end to end, including resume. */
describe("AgentSession with the production collaborators", () => {
  let root: string;
  let paths: ZiPaths;
  let env: NodeJS.ProcessEnv;
  let scriptFile: string;
  const warnings: string[] = [];
  const journals: SessionJournal[] = [];

  const registry = (): ModelRegistry => {
    return new ModelRegistry({ paths, env, fauxScriptFile: scriptFile, warn: (message) => warnings.push(message) });
  };
  const session = (journal: SessionJournal, runtime: ModelRegistry = registry()): AgentSession =>
    new AgentSession({
      runtime,
      journal,
      cwd: paths.projectDir,
      tools: [noteTool],
      settingsWriter: new SettingsStore(paths, (message) => warnings.push(message)),
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      warn: (message) => warnings.push(message),
    });
  const track = (journal: SessionJournal): SessionJournal => (journals.push(journal), journal);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "zi-session-test-"));
    env = { ZI_HOME: join(root, "home") };
    paths = new ZiPaths({ env, cwd: join(root, "project") });
    scriptFile = join(root, "script.json");
    writeFileSync(
      scriptFile,
      JSON.stringify({
        responses: [
          { error: { message: "temporarily unavailable", retryable: true } },
          { toolCalls: [{ name: "note", arguments: { text: "hi" } }] },
          { text: "all done" },
        ],
      }),
    );
    warnings.length = 0;
  });

  afterEach(() => {
    for (const journal of journals.splice(0)) journal.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("runs, persists settings, and resumes messages, plan, model and thinking level", async () => {
    const journal = track(SessionJournal.create(paths.sessionsDir, "resume-me", paths.projectDir, { fsync: false }));
    // One registry for the process, as in production: its faux script continues across sessions.
    const runtime = registry();
    const first = session(journal, runtime);
    const events: AgentSessionEvent[] = [];
    first.subscribe((event) => void events.push(event));
    await first.models.select("faux", "scripted");
    await expect(first.thinking.select("xhigh", "global")).resolves.toEqual({ requested: "xhigh", effective: "high", persisted: "global" });
    expect(JSON.parse(readFileSync(paths.globalSettingsFile, "utf8"))).toEqual({ thinkingLevel: "xhigh" });
    first.replaceWorkPlan([{ title: "finish", status: "in_progress" }]);

    await first.prompt({ delivery: "direct", text: "do it", completionId: "w" });
    await expect(first.awaitIdle("w", never())).resolves.toEqual({
      completionId: "w",
      completionRevision: 1,
      messageCount: 5,
      completion: { text: "all done", textTruncated: false, stopReason: "stop" },
    });
    expect(events.filter((event) => event.type.startsWith("auto_retry")).map((event) => event.type)).toEqual(["auto_retry_start", "auto_retry_end"]);
    expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({ isError: false });
    const before = first.getState();
    journal.close();

    const reopened = track(SessionJournal.open(journal.file!, { fsync: false }));
    const entriesBefore = reopened.entryCount;
    const second = session(reopened, runtime);
    const resumed = second.getState();
    expect(resumed.model).toEqual({ type: "unselected" });
    expect(resumed.messageCount).toBe(5);
    expect(resumed.workPlan).toEqual(before.workPlan);

    const resumedEvents: AgentSessionEvent[] = [];
    second.subscribe((event) => void resumedEvents.push(event));
    await second.ensureModelRestored();
    const state = second.getState();
    expect(state.model).toMatchObject({ type: "selected", provider: "faux", id: "scripted" });
    expect(state.thinkingLevel).toBe("high");
    expect(state.contextUsage).toEqual(before.contextUsage);
    expect(resumedEvents.map((event) => event.type)).toEqual(["model_changed", "thinking_level_changed"]);
    expect(reopened.entryCount).toBe(entriesBefore);

    // The script is used up: faux/scripted echoes, and it saw the whole resumed conversation.
    await second.prompt({ delivery: "direct", text: "again", completionId: "w2" });
    const result = (await second.awaitIdle("w2", never())) as { completion: { text: string } };
    expect(result.completion.text).toBe("Echo: again");
    expect(second.getState().messageCount).toBe(7);
  });

  it("a resumed model that cannot be resolved leaves the session unselected with a warning", async () => {
    const journal = track(SessionJournal.create(paths.sessionsDir, "ghost", paths.projectDir, { fsync: false }));
    journal.append({ type: "model_change", provider: "faux", modelId: "ghost" });
    journal.close();
    const resumed = session(track(SessionJournal.open(journal.file!, { fsync: false })));

    // Admitted while the restore is pending; the run then finds no model.
    expect(await resumed.prompt({ delivery: "direct", text: "hello" })).toEqual({ delivery: "direct", admission: "started" });
    await resumed.awaitIdle(undefined, never());
    expect(resumed.getState().activity).toEqual({ type: "failed", errorMessage: "no model selected; call model.select first" });
    expect(resumed.getState().model).toEqual({ type: "unselected" });
    expect(warnings.some((warning) => warning.includes("faux/ghost"))).toBe(true);
    await expect(resumed.prompt({ delivery: "direct", text: "again" })).rejects.toMatchObject({ code: "operation_failed" });
  });
});
