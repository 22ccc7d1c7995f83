import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import { ModelRegistry } from "../../../core/models/model-registry.js";
import { PiAiLoader } from "../../../core/models/pi-ai-loader.js";
import { ProviderWarmer } from "../../../core/models/provider-warmer.js";
import { AgentSession } from "../../../core/session/agent-session.js";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import { SessionRehearsal } from "../../../core/session/session-rehearsal.js";
import type { AgentSessionEvent } from "../../../core/wire/session-types.js";
import { OpenAICompatibleServer } from "../../support/openai-compatible-server.js";
import { TempZiHome } from "../../support/temp-zi-home.js";

/**
 * The provider warm-up run as a whole prompt of a session of its own (SessionRehearsal): it must
 * reach its reply through Zi's warm-up server, send the configured provider nothing, and leave the
 * real session's events, journal and state untouched.
 */
describe("SessionRehearsal", () => {
  let home: TempZiHome;
  let server: OpenAICompatibleServer;
  let warmer: ProviderWarmer;
  let registry: ModelRegistry;
  let journal: SessionJournal;
  let session: AgentSession;
  let events: AgentSessionEvent[];
  /** The tools each rehearsal's system prompt was built for, and the calls of the real tool. */
  let prompted: string[][];
  let toolRuns: number;
  let tool: AgentTool;
  /** The real session's start-up, as the rehearsal is given it when it starts (ended unless a test holds it). */
  let startup: Promise<boolean>;
  /** Settles once the warmer has started the rehearsal. */
  let driven: Promise<void>;
  /** What each rehearsal's model call was given: its tools' names and its system prompt. */
  let calls: { tools: string[]; systemPrompt: string | undefined }[];
  /** Streamed text scrubbers the process's redactor made (a real run's deltas pass through one). */
  let scrubbers: number;

  beforeEach(async () => {
    home = new TempZiHome();
    server = new OpenAICompatibleServer();
    const baseUrl = await server.start();
    home.write(home.paths.modelsFile, { providers: { local: { baseUrl, apiKey: "k-secret", models: [{ id: "m1" }] } } });
    warmer = new ProviderWarmer();
    prompted = [];
    toolRuns = 0;
    calls = [];
    startup = Promise.resolve(true);
    let drive!: () => void;
    driven = new Promise((resolve) => (drive = resolve));
    const systemPrompt = (tools: readonly AgentTool[]) => {
      prompted.push(tools.map((tool) => tool.name));
      return Promise.resolve(`the real session's prompt, for ${tools.map((tool) => tool.name).join(", ")}`);
    };
    warmer.driveWith((model, start, signal) => {
      drive();
      const recorded: typeof start = (context, callSignal) => {
        calls.push({ tools: (context.tools ?? []).map((tool) => tool.name), systemPrompt: context.systemPrompt });
        return start(context, callSignal);
      };
      return SessionRehearsal.run(model, recorded, signal, { cwd: home.project, startup, tools: () => session.toolList(), systemPrompt, redactor: registry.redactor });
    });
    registry = new ModelRegistry({ paths: home.paths, env: home.env, warn: home.warn, piAi: new PiAiLoader(), warmer });
    scrubbers = 0;
    const { redactor } = registry;
    const scrubber = redactor.stream.bind(redactor);
    redactor.stream = () => (scrubbers++, scrubber());
    journal = SessionJournal.inMemory("real", home.project);
    tool = {
      name: "probe",
      description: "counts its runs",
      parameters: { type: "object", properties: {} },
      execute: () => {
        toolRuns++;
        return Promise.resolve({ content: [{ type: "text", text: "ran" }] });
      },
    };
    session = new AgentSession({ runtime: registry, journal, cwd: home.project, tools: [tool] });
    events = [];
    session.subscribe((event) => void events.push(event));
  });

  afterEach(async () => {
    await ProviderWarmer.settled();
    await session.dispose();
    journal.close();
    await server.stop();
    home.cleanup();
  });

  it("runs a whole turn to the warm-up server's reply; the provider and the real session see none of it", async () => {
    await session.models.select("local", "m1");
    const seen = events.length;
    const entries = [...journal.entries()].length;
    expect(await warmer.warming("openai-completions")).toBe(true);
    expect(server.requests).toEqual([]);
    expect(events.length).toBe(seen);
    expect([...journal.entries()].length).toBe(entries);
    expect(session.getState().activity).toEqual({ type: "idle" });
    expect(prompted).toEqual([["probe"]]); // the real session's tools, offered, never run
    expect(calls).toEqual([{ tools: ["probe"], systemPrompt: "the real session's prompt, for probe" }]);
    expect(toolRuns).toBe(0);
    expect(scrubbers).toBe(1); // its reply's text, scrubbed as a real run's

    server.enqueue({ type: "text", chunks: ["hi"] });
    await session.prompt({ delivery: "direct", text: "hello", completionId: "c1" });
    const idle = await session.awaitIdle("c1", new AbortController().signal);
    expect("completion" in idle && idle.completion?.text).toBe("hi");
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.headers.authorization).toBe("Bearer k-secret");
    expect(Object.keys(request.headers).filter((name) => name.startsWith("x-zi-"))).toEqual([]);
    expect(request.body?.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hello" }] }]);
    expect(events.filter((event) => event.type === "agent_start")).toHaveLength(1);
  });

  it("is dropped when a real prompt of its API starts first; the prompt is answered as before", async () => {
    await session.models.select("local", "m1"); // the rehearsal starts after this turn
    server.enqueue({ type: "text", chunks: ["hi"] });
    await session.prompt({ delivery: "direct", text: "hello", completionId: "c1" });
    const idle = await session.awaitIdle("c1", new AbortController().signal);
    expect(await warmer.warming("openai-completions")).toBe(false);
    expect("completion" in idle && idle.completion?.text).toBe("hi");
    expect(server.requests).toHaveLength(1);
  });

  it("takes the tools and the system prompt once the real session's start-up has ended", async () => {
    // As in a process: the model is selected (and the rehearsal started) before the plugins bring the tools.
    let release!: (ended: boolean) => void;
    startup = new Promise((resolve) => (release = resolve));
    session.setTools([]);
    await session.models.select("local", "m1");
    await driven;
    session.setTools([tool]);
    release(true);
    expect(await warmer.warming("openai-completions")).toBe(true);
    expect(prompted).toEqual([["probe"]]);
    expect(calls).toEqual([{ tools: ["probe"], systemPrompt: "the real session's prompt, for probe" }]);
    expect(server.requests).toEqual([]);
  });

  it("waiting for a start-up that never ends, is dropped by a real prompt of its API", async () => {
    startup = new Promise(() => undefined);
    await session.models.select("local", "m1");
    await driven;
    server.enqueue({ type: "text", chunks: ["hi"] });
    await session.prompt({ delivery: "direct", text: "hello", completionId: "c1" });
    const idle = await session.awaitIdle("c1", new AbortController().signal);
    expect("completion" in idle && idle.completion?.text).toBe("hi");
    expect(await warmer.warming("openai-completions")).toBe(false);
    expect(calls).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("rehearses nothing for a session disposed before its start-up ended", async () => {
    startup = Promise.resolve(false);
    await session.models.select("local", "m1");
    expect(await warmer.warming("openai-completions")).toBe(false);
    expect(calls).toEqual([]);
    expect(prompted).toEqual([]);
  });
});
