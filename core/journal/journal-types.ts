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
  | "compaction"
  | "branch"
  | "file_checkpoint"
  | "rewind";

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
    /** Moves the leaf to its parentId (docs/sessions.md); `fromId` is the leaf it left, `summary` of that branch the model sees. */
    | { type: "branch"; fromId: string; summary?: string }
    /** A file Zi's write/edit tool changed: its content hashes before and after (null: absent), the before content in the checkpoint store. */
    | { type: "file_checkpoint"; toolCallId: string; toolName: string; path: string; before: string | null; after: string | null }
    /** A rewind of files: `begin` lists what it will write, `end` says it finished (an interrupted one is finished on the next start). */
    | { type: "rewind"; phase: "begin" | "end"; targetId: string; files?: RewindPlanFile[] }
  );

/** One file of a rewind: the content hash to restore (null: delete) and the hash it had before the rewind. */
export interface RewindPlanFile {
  path: string;
  restore: string | null;
  current: string | null;
}

/** What callers pass to `append`: the journal assigns `id`, `parentId` and `timestamp`. */
export type JournalEntryInput = JournalEntry extends infer E
  ? E extends EntryBase
    ? Omit<E, keyof EntryBase>
    : never
  : never;
