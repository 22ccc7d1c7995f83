import type { ResolvedModel, ModelRuntime } from "../models/model-runtime.js";
import type { WarmUpStart } from "../models/provider-warmer.js";
import { SessionJournal } from "../journal/session-journal.js";
import type { AgentTool } from "./agent-tool.js";
import { AgentSession } from "./agent-session.js";

const COMPLETION = "zi-rehearsal";

/** Offered, never called: the rehearsal's request carries a tool, as a session's does. */
const REHEARSAL_TOOL: AgentTool = {
  name: "warm_up",
  description: "Not a tool: the warm-up's request carries one, as a session's does.",
  parameters: { type: "object", properties: { text: { type: "string", description: "any text" } }, required: ["text"] },
  execute: () => Promise.resolve({ content: [{ type: "text", text: "" }], isError: true }),
};

/**
 * The provider warm-up's call run as a prompt runs one (ProviderWarmer's WarmUpDriver): one direct
 * prompt to an AgentSession of its own, in memory, with no subscriber, no extension, no hook and no
 * journal file, whose model calls are the warm-up's (to Zi's warm-up server, never the provider). A
 * first prompt otherwise compiled and ran cold Zi's whole first turn (admission, the run loop, the
 * streamer and its scrubber, the journal appender, the event bus): about half of what it paid more
 * than a later prompt. Nothing of it is seen outside: the real session's state, journal and events
 * are its own.
 */
export class SessionRehearsal {
  static async run(model: ResolvedModel, start: WarmUpStart, signal: AbortSignal, cwd: string): Promise<boolean> {
    const runtime: ModelRuntime = {
      list: () => Promise.resolve([]),
      resolve: () => Promise.resolve(model),
      stream: (_model, context, options) => start(context, options.signal),
      classifyError: () => "fatal",
      clampThinking: () => "off",
    };
    const journal = SessionJournal.inMemory(COMPLETION, cwd);
    const session = new AgentSession({ runtime, journal, cwd, tools: [REHEARSAL_TOOL], systemPrompt: "Zi's provider warm-up.", retry: { maxAttempts: 0 } });
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
