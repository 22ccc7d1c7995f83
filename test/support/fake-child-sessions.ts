import type { AgentTool } from "../../core/session/agent-tool.js";
import type { AgentSession } from "../../core/session/agent-session.js";
import type { ChildSession, ChildSessionSpec } from "../../core/session/child-session-factory.js";
import type { AgentSessionEvent, SessionState } from "../../core/wire/session-types.js";
import { looseEvent } from "./loose-event.js";

type End = { reason: "completed" | "failed" | "interrupted"; text: string; errorMessage?: string };

/** How a fake child behaves once prompted: emit events, then end (or wait to be interrupted). */
export type Behaviour = (child: FakeChild) => void | Promise<void>;

/** One child session as the delegate tool sees it: events, prompt, idle, interrupt, close. */
export class FakeChild {
  task = "";
  tools: AgentTool[] = [];
  interrupts = 0;
  closed = false;
  readonly ended: Promise<End>;
  readonly handle: ChildSession;
  private finish!: (end: End) => void;
  private done = false;
  private readonly listeners = new Set<(event: AgentSessionEvent) => void>();

  constructor(
    readonly spec: ChildSessionSpec,
    readonly sessionId: string,
    private readonly owner: FakeChildSessions,
  ) {
    this.ended = new Promise((resolve) => (this.finish = resolve));
    const session = {
      subscribe: (listener: (event: AgentSessionEvent) => void) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
      prompt: async (input: { text: string }) => {
        this.task = input.text;
        owner.started(this);
        void Promise.resolve().then(() => owner.behaviour(this));
        return { delivery: "direct", admission: "started", completionRevision: 1 };
      },
      awaitIdle: async () => {
        const end = await this.ended;
        const completion = { text: end.text, textTruncated: false, stopReason: end.reason === "completed" ? "stop" : "error", errorMessage: end.errorMessage };
        return { completionId: "delegate", completionRevision: 1, messageCount: 2, completion };
      },
      interrupt: async () => {
        this.interrupts++;
        this.end("interrupted");
      },
      toolList: () => this.tools,
      getState: () => owner.state,
      appendSubagentEntry: (data: Record<string, unknown>) => (owner.grandchildEntries.push(data), {}),
    };
    this.handle = {
      session: session as unknown as AgentSession,
      sessionId,
      journalFile: null,
      close: async () => void (this.closed = true),
    };
  }

  emit(event: AgentSessionEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** A turn: optional tool calls, then the assistant reply with its usage. */
  turn(tools: string[] = []): void {
    this.emit(looseEvent({ type: "message_end", message: { role: "assistant", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.5 } } } }));
    for (const name of tools) this.emit(looseEvent({ type: "tool_execution_start", toolName: name }));
    this.emit(looseEvent({ type: "turn_end", toolResults: tools.map((name) => ({ toolName: name })) }));
  }

  end(reason: End["reason"], text = "", errorMessage?: string): void {
    if (this.done) return;
    this.done = true;
    this.emit(errorMessage === undefined ? { type: "agent_end", reason } : { type: "agent_end", reason, errorMessage });
    this.owner.stopped();
    this.finish({ reason, text, errorMessage });
  }
}

/** Stands in for ChildSessionFactory, counting how many children run at once. */
export class FakeChildSessions {
  readonly children: FakeChild[] = [];
  readonly grandchildEntries: Record<string, unknown>[] = [];
  running = 0;
  maxRunning = 0;
  state = { model: { type: "selected", provider: "faux", id: "echo" }, thinkingLevel: "off" } as unknown as SessionState;
  /** When set, `create` rejects with it (e.g. an unknown model). */
  createError: Error | undefined;

  constructor(readonly behaviour: Behaviour) {}

  async create(spec: ChildSessionSpec): Promise<ChildSession> {
    if (this.createError) throw this.createError;
    const child = new FakeChild(spec, `child-${this.children.length + 1}`, this);
    this.children.push(child);
    child.tools = spec.tools(child.handle.session);
    return child.handle;
  }

  started(_child: FakeChild): void {
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
  }

  stopped(): void {
    this.running--;
  }
}

/** Lets pending promise callbacks run until `condition` holds (no clock involved). */
export async function until(condition: () => boolean, what = "condition"): Promise<void> {
  for (let spins = 0; !condition(); spins++) {
    if (spins > 10_000) throw new Error(`${what} never became true`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
