import type { JournalEntry } from "../journal/journal-types.js";
import type { OutcomeEntry } from "../journal/journal-view-types.js";
import { RpcError } from "../kernel/rpc-error.js";
import type { SessionJournalLike } from "./agent-session-options.js";
import type { JournalAppender } from "./journal-appender.js";
import type { SessionStateStore } from "./session-state-store.js";
import type { OperationOutcome, WorkPlan, WorkPlanStep } from "../wire/session-types.js";
import { copyWorkPlanSteps, workPlanStepsProblem } from "../wire/work-plan-step.js";
import { RPC_LIMITS } from "../wire/limits.js";

export interface CustomMessageInput {
  customType: string;
  content: string;
  /** Displayed messages appear in message pages; hidden ones only reach the model and the journal. */
  display: boolean;
  details?: unknown;
}

/** An outcome as a producer records it: the journal adds `id`, `parentId` and `timestamp`. */
export type OutcomeInput = Omit<OperationOutcome, "id" | "parentId" | "timestamp">;

const invalid = (message: string): RpcError => new RpcError("operation_failed", message);

/**
 * Journal writes that extensions drive: custom entries and messages, operation outcomes and work
 * plans. Each is journaled, then announced (`entry_appended`, plus the semantic event where there
 * is one), in one synchronous step.
 */
export class ExtensionRecords {
  constructor(
    private readonly journal: SessionJournalLike,
    private readonly store: SessionStateStore,
    private readonly recorder: JournalAppender,
  ) {}

  appendCustomEntry(customType: string, data?: unknown): JournalEntry {
    if (typeof customType !== "string" || customType === "") throw invalid("customType must be a non-empty string");
    return this.recorder.append(data === undefined ? { type: "custom", customType } : { type: "custom", customType, data }).entry;
  }

  /** Delegation evidence (a child's start or end), journaled and announced like any entry. */
  appendSubagentEntry(data: Record<string, unknown>): JournalEntry {
    if (typeof data !== "object" || data === null || Array.isArray(data)) throw invalid("subagent data must be an object");
    return this.recorder.append({ type: "subagent", data }).entry;
  }

  /** Permission evidence (docs/permissions.md, "The journal"), journaled and announced like any entry. */
  appendPermissionEntry(data: Record<string, unknown>): JournalEntry {
    if (typeof data !== "object" || data === null || Array.isArray(data)) throw invalid("permission data must be an object");
    return this.recorder.append({ type: "permission", data }).entry;
  }

  /** Enters the model's context from the next model call on (as a user message). */
  sendCustomMessage(input: CustomMessageInput): JournalEntry {
    if (typeof input.customType !== "string" || input.customType === "") throw invalid("customType must be a non-empty string");
    if (typeof input.content !== "string") throw invalid("content must be a string");
    const entry = { type: "custom_message" as const, customType: input.customType, content: input.content, display: input.display === true };
    return this.recorder.append(input.details === undefined ? entry : { ...entry, details: input.details }).entry;
  }

  recordOutcome(input: OutcomeInput): OperationOutcome {
    for (const field of ["operationId", "capability", "operation", "result"] as const) {
      if (typeof input[field] !== "string" || input[field] === "") throw invalid(`${field} must be a non-empty string`);
    }
    if (typeof input.durationMs !== "number" || !Number.isFinite(input.durationMs) || input.durationMs < 0) {
      throw invalid("durationMs must be a finite number >= 0");
    }
    const { operationId, capability, operation, result, durationMs, evidence } = input;
    const base = { type: "operation_outcome" as const, operationId, capability, operation, result, durationMs };
    if (evidence !== undefined) ExtensionRecords.checkEvidence(evidence);
    const { entry } = this.recorder.append(evidence === undefined ? base : { ...base, evidence });
    const outcome = this.journal.toOutcome(entry as OutcomeEntry);
    void this.store.emit({ type: "operation_outcome", outcome });
    return outcome;
  }

  replaceWorkPlan(steps: WorkPlanStep[]): WorkPlan {
    const problem = workPlanStepsProblem(steps);
    if (problem !== undefined) throw invalid(problem);
    const copied = copyWorkPlanSteps(steps);
    const workPlan: WorkPlan = { revision: this.store.workPlan.revision + 1, steps: copied };
    this.recorder.append({ type: "work_plan", workPlan });
    void this.store.setWorkPlan(workPlan);
    return structuredClone(workPlan);
  }

  private static checkEvidence(evidence: unknown): void {
    let encoded: string | undefined;
    try {
      encoded = JSON.stringify(evidence);
    } catch {
      throw invalid("evidence must be JSON-serialisable");
    }
    if (encoded === undefined) throw invalid("evidence must be JSON-serialisable");
    if (Buffer.byteLength(encoded) > RPC_LIMITS.maxOutcomeEvidenceBytes) throw invalid("evidence exceeds 8 KiB when encoded as JSON");
  }

}
