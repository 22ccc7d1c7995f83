import type * as PiAi from "@mariozechner/pi-ai";
import type { OperationOutcome, ThinkingLevel, WorkPlan } from "../wire/session-types.js";

export type JournalEntryType =
  | "session"
  | "message"
  | "model_change"
  | "thinking_level_change"
  | "custom"
  | "custom_message"
  | "work_plan"
  | "operation_outcome"
  | "subagent"
  | "permission"
  | "compaction";

interface EntryBase {
  id: string;
  parentId: string | null;
  timestamp: string;
}

/** One line of the journal file. The first line of a file is the `session` header. */
export type JournalEntry = EntryBase &
  (
    | { type: "session"; version: 1; sessionId: string; cwd: string }
    | { type: "message"; message: PiAi.Message }
    | { type: "model_change"; provider: string; modelId: string }
    | { type: "thinking_level_change"; thinkingLevel: ThinkingLevel }
    | { type: "custom"; customType: string; data?: unknown }
    | { type: "custom_message"; customType: string; content: string; display: boolean; details?: unknown }
    | { type: "work_plan"; workPlan: WorkPlan }
    | ({ type: "operation_outcome" } & Omit<OperationOutcome, "id" | "parentId" | "timestamp">)
    | { type: "subagent"; data: unknown }
    | { type: "permission"; data: unknown }
    | { type: "compaction"; summary: string; firstKeptEntryId: string; tokensBefore: number; usage?: PiAi.Usage }
  );

/** What callers pass to `append`: the journal assigns `id`, `parentId` and `timestamp`. */
export type JournalEntryInput = JournalEntry extends infer E
  ? E extends EntryBase
    ? Omit<E, keyof EntryBase>
    : never
  : never;
