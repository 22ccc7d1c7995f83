import type * as PiAi from "@mariozechner/pi-ai";
import { SessionJournal } from "../../core/journal/session-journal.js";
import { AgentSession } from "../../core/session/agent-session.js";
import type { AgentSessionOptions } from "../../core/session/agent-session-options.js";
import type { AgentSessionEvent, SessionEventOf, SessionEventType } from "../../core/wire/session-types.js";
import { HeldReply } from "./deferred.js";
import { FauxRuntime } from "./faux-runtime.js";
import type { FauxRuntimeOptions } from "./faux-runtime.js";

export type HarnessOptions = Omit<Partial<AgentSessionOptions>, "runtime" | "journal"> & {
  faux?: FauxRuntimeOptions;
  /** Model to select before the test starts; null selects none. Default faux/plain. */
  model?: string | null;
  journal?: SessionJournal;
};

/** An AgentSession on an in-memory journal and the faux runtime, recording every event. */
export class SessionHarness {
  readonly events: AgentSessionEvent[] = [];

  private constructor(
    readonly session: AgentSession,
    readonly runtime: FauxRuntime,
    readonly journal: SessionJournal,
    readonly warnings: string[],
  ) {
    session.subscribe((event) => void this.events.push(event));
  }

  static async create(options: HarnessOptions = {}): Promise<SessionHarness> {
    const runtime = await FauxRuntime.create(options.faux);
    const journal = options.journal ?? SessionJournal.inMemory("session-test", "/tmp");
    const { faux: _faux, model, journal: _journal, ...rest } = options;
    const warnings: string[] = [];
    const session = new AgentSession({
      cwd: "/tmp",
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 4 },
      warn: (message) => warnings.push(message),
      ...rest,
      runtime,
      journal,
    });
    const harness = new SessionHarness(session, runtime, journal, warnings);
    if (model !== null) await session.models.select("faux", model ?? "plain");
    harness.events.length = 0;
    return harness;
  }

  dispose(): void {
    this.runtime.dispose();
  }

  /** Runs a direct prompt to idle. */
  async ask(text: string): Promise<void> {
    await this.session.prompt({ delivery: "direct", text });
    await this.idle();
  }

  /**
   * Starts a direct prompt whose run is held at its first model call: the model answers `first` once
   * the test calls `release()`, then `rest`. Resolves when the model has been called (the run is busy).
   */
  async heldRun(prompt: { text: string; completionId?: string }, first: PiAi.AssistantMessage, ...rest: PiAi.FauxResponseStep[]): Promise<HeldReply<PiAi.AssistantMessage>> {
    const held = new HeldReply(first);
    this.runtime.respond(held.step, ...rest);
    await this.session.prompt({ delivery: "direct", ...prompt });
    await held.called.promise;
    return held;
  }

  async idle(): Promise<void> {
    await this.session.awaitIdle(undefined, new AbortController().signal);
  }

  types(): string[] {
    return this.events.map((event) => event.type);
  }

  ofType<K extends SessionEventType>(type: K): SessionEventOf<K>[] {
    return this.events.filter((event): event is SessionEventOf<K> => event.type === type);
  }

  /** Resolves at the first event of `type` (already recorded or future). */
  next<K extends SessionEventType>(type: K, predicate: (event: SessionEventOf<K>) => boolean = () => true): Promise<SessionEventOf<K>> {
    const matches = (event: AgentSessionEvent): event is SessionEventOf<K> => event.type === type && predicate(event as SessionEventOf<K>);
    const seen = this.events.find(matches);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const stop = this.session.subscribe((event) => {
        if (matches(event)) {
          stop();
          resolve(event);
        }
      });
    });
  }

  /** Every message the journal holds, in order. */
  messages(): PiAi.Message[] {
    return [...this.journal.entries()].flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
  }

  userTexts(): string[] {
    return this.messages().flatMap((message) =>
      message.role === "user" && Array.isArray(message.content)
        ? [message.content.map((block) => (block.type === "text" ? block.text : "")).join("")]
        : [],
    );
  }
}

export const textOf = (message: PiAi.Message): string =>
  typeof message.content === "string"
    ? message.content
    : message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
