import type * as PiAi from "@mariozechner/pi-ai";
import type { JournalEntry } from "../../core/journal/journal-types.js";
import type { AgentSessionEvent, SessionState } from "../../core/wire/session-types.js";

/**
 * What a client does with session events to keep a snapshot current, written from the event
 * documentation only (independently of the session's own code).
 */
export function reduceState(previous: SessionState, event: AgentSessionEvent): SessionState {
  const state = structuredClone(previous);
  const e = event as Record<string, any>;
  switch (event.type) {
    case "activity_changed":
      state.activity = e.activity;
      break;
    case "queue_update":
      state.queuedInputs = { steering: e.steering, followUp: e.followUp };
      break;
    case "model_changed":
      state.model = { type: "selected", ...e.model };
      state.supportedThinkingLevels = e.supportedThinkingLevels;
      state.contextUsage = e.contextUsage;
      break;
    case "thinking_level_changed":
      state.thinkingLevel = e.thinkingLevel;
      break;
    case "work_plan_changed":
      state.workPlan = e.workPlan;
      break;
    case "compaction_start":
      state.compaction = { type: "compacting", reason: e.reason };
      break;
    case "compaction_end":
      state.compaction = { type: "idle" };
      break;
    case "auto_retry_start":
      state.retry = { type: "waiting", attempt: e.attempt, maxAttempts: e.maxAttempts, delayMs: e.delayMs, errorMessage: e.errorMessage };
      break;
    case "auto_retry_end":
      state.retry = { type: "idle" };
      break;
    case "entry_appended":
      applyEntry(state, e.entry as JournalEntry);
      break;
  }
  return state;
}

function applyEntry(state: SessionState, entry: JournalEntry): void {
  if (entry.type === "message" || (entry.type === "custom_message" && entry.display)) state.messageCount++;
  if (entry.type === "compaction" && state.model.type === "selected") {
    state.contextUsage = { type: "unavailable", reason: "no_usage" };
  }
  if (entry.type !== "message" || state.model.type !== "selected") return;
  const message = entry.message as PiAi.Message;
  if (message.role !== "assistant" || message.stopReason === "error" || message.stopReason === "aborted") return;
  const tokens = message.usage.totalTokens;
  if (tokens <= 0) return;
  const contextWindow = state.model.contextWindow;
  state.contextUsage = { type: "available", tokens, contextWindow, percent: Math.round((tokens / contextWindow) * 1000) / 10 };
}
