import type { Redactor } from "../config/redactor.js";
import type { ResolvedModel, ModelRuntime } from "../models/model-runtime.js";
import type { WarmUpStart } from "../models/provider-warmer.js";
import { SessionJournal } from "../journal/session-journal.js";
import type { SystemPromptSource } from "./agent-session-options.js";
import type { AgentTool } from "./agent-tool.js";
import { AbortRace } from "./abort-race.js";
import { AgentSession } from "./agent-session.js";

const COMPLETION = "zi-rehearsal";

export interface RehearsalOptions {
  cwd: string;
  /**
   * True once the real session's start-up (its plugins, extensions and context files) has ended: the
   * tools and the system prompt are taken then (a model is selected, and so rehearsed, about 20 ms
   * before the plugins bring the coding tools). False if the session was disposed first: nothing is.
   */
  startup: Promise<boolean>;
  /** The real session's tools of the moment: offered as they are, never run (see `unrunnable`). */
  tools(): readonly AgentTool[];
  /** The real session's system prompt, built without the extensions' hooks. */
  systemPrompt: SystemPromptSource;
  /** The process's redactor: the streamed text and the journal's lines are scrubbed as a real run's are. */
  redactor?: Redactor;
}

/** What the model is offered of a tool, and an `execute` that refuses: the rehearsal runs no tool. */
const unrunnable = ({ name, description, parameters }: AgentTool): AgentTool => ({
  name,
  description,
  parameters,
  execute: () => Promise.resolve({ content: [{ type: "text", text: "zi: a rehearsal runs no tool" }], isError: true }),
});

/**
 * The provider warm-up's call run as a prompt runs one (ProviderWarmer's WarmUpDriver): one direct
 * prompt to an AgentSession of its own, in memory, with no subscriber, no extension, no hook and no
 * journal file, whose model call is the warm-up's (to Zi's warm-up server, never the provider), with
 * the real session's tools and system prompt as its start-up leaves them. A first prompt otherwise
 * compiled and ran cold Zi's whole first turn (the run loop, the system prompt's build, the streamer
 * and its scrubber, the journal appender, the event bus): about half of what it paid more than a
 * later prompt. Nothing of it is seen outside: the real session's state, journal and events are its own.
 */
export class SessionRehearsal {
  static async run(model: ResolvedModel, start: WarmUpStart, signal: AbortSignal, options: RehearsalOptions): Promise<boolean> {
    const { cwd, systemPrompt, redactor } = options;
    // A real call of the API supersedes the wait too.
    const startup = await new AbortRace(signal).run(() => options.startup);
    if (startup.type !== "done" || !startup.value || signal.aborted) return false;
    const runtime: ModelRuntime = {
      list: () => Promise.resolve([]),
      resolve: () => Promise.resolve(model),
      stream: (_model, context, streamOptions) => start(context, streamOptions.signal),
      classifyError: () => "fatal",
      clampThinking: () => "off",
      ...(redactor ? { redactor } : {}),
    };
    const journal = SessionJournal.inMemory(COMPLETION, cwd, redactor ? { redact: (line) => redactor.redactJson(line) } : {});
    const session = new AgentSession({ runtime, journal, cwd, tools: options.tools().map(unrunnable), systemPrompt, retry: { maxAttempts: 0 } });
    const stop = (): void => void session.interrupt();
    signal.addEventListener("abort", stop, { once: true });
    try {
      await session.models.select(model.descriptor.provider, model.descriptor.id);
      if (signal.aborted) return false;
      await session.prompt({ delivery: "direct", text: "warm up", completionId: COMPLETION });
      const idle = await session.awaitIdle(COMPLETION, signal);
      return !signal.aborted && "completion" in idle && idle.completion?.text === "ok";
    } finally {
      signal.removeEventListener("abort", stop);
      await session.dispose();
      journal.close();
    }
  }
}
