import type * as PiAi from "@mariozechner/pi-ai";
import type { JournalEntry } from "../journal/journal-types.js";
import type { SessionUsage, UsageTotals } from "../wire/session-types.js";

const empty = (): UsageTotals => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0, modelCalls: 0, toolCalls: 0 });

const finite = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);

function addUsage(totals: UsageTotals, usage: Partial<PiAi.Usage> | undefined, cost: unknown): void {
  totals.input += finite(usage?.input);
  totals.output += finite(usage?.output);
  totals.cacheRead += finite(usage?.cacheRead);
  totals.cacheWrite += finite(usage?.cacheWrite);
  totals.totalTokens += finite(usage?.totalTokens);
  totals.cost += finite(cost);
}

/**
 * What a session has spent, kept as its journal grows: every entry the journal appender writes passes
 * through `observe`, and a resumed session starts from its journal's entries. Model calls are the
 * assistant messages (failed and interrupted attempts included: they were paid for) and compaction
 * summaries; tool calls are the tool results; children are the `subagent` end entries.
 */
export class UsageLedger {
  private session = empty();
  private children = { ...empty(), tasks: 0 };
  private run: (UsageTotals & { active: boolean }) | null = null;

  constructor(entries: Iterable<JournalEntry> = []) {
    for (const entry of entries) this.observe(entry);
  }

  /** Another journal became the session's (session.new, fork, switch): its spend, no run yet. */
  reset(entries: Iterable<JournalEntry>): void {
    this.session = empty();
    this.children = { ...empty(), tasks: 0 };
    this.run = null;
    for (const entry of entries) this.observe(entry);
  }

  observe(entry: JournalEntry): void {
    switch (entry.type) {
      case "message":
        return this.message(entry.message);
      case "compaction":
        if (entry.usage) this.count((totals) => (addUsage(totals, entry.usage, entry.usage?.cost?.total), totals.modelCalls++));
        return;
      case "subagent":
        return this.child(entry.data);
      default:
        return;
    }
  }

  startRun(): void {
    this.run = { ...empty(), active: true };
  }

  endRun(): void {
    if (this.run) this.run.active = false;
  }

  snapshot(): SessionUsage {
    return { session: { ...this.session }, run: this.run && { ...this.run }, children: { ...this.children } };
  }

  private message(message: PiAi.Message): void {
    if (message.role === "assistant") this.count((totals) => (addUsage(totals, message.usage, message.usage?.cost?.total), totals.modelCalls++));
    else if (message.role === "toolResult") this.count((totals) => totals.toolCalls++);
  }

  /** To the session and, while one is active, to the run. */
  private count(add: (totals: UsageTotals) => unknown): void {
    add(this.session);
    if (this.run?.active) add(this.run);
  }

  private child(data: unknown): void {
    const end = data as { phase?: unknown; usage?: Partial<PiAi.Usage> & { cost?: unknown }; turns?: unknown; toolCalls?: unknown } | null;
    if (typeof end !== "object" || end === null || end.phase !== "end") return;
    this.children.tasks++;
    addUsage(this.children, end.usage, end.usage?.cost);
    this.children.modelCalls += finite(end.turns);
    this.children.toolCalls += finite(end.toolCalls);
  }
}
