import type {
  Activity,
  CatalogModel,
  CompletionEvidence,
  ContextUsage,
  SandboxState,
  DecidingRule,
  DelegationOrigin,
  Delivery,
  ModelState,
  OperationOutcome,
  PermissionRequest,
  PermissionRule,
  PublicModel,
  QueuedInput,
  SessionState,
  SourcedPermissionRule,
  SessionUsage,
  ThinkingLevel,
  UsageTotals,
  WorkPlan,
} from "./session-types.js";
import type { BudgetHit, BudgetReport, BudgetSettings } from "./budget-types.js";
import type { ContextSummary } from "./context-summary.js";

/** A journal entry as the wire carries it: an open envelope (no index signature, so the journal's own entry types are assignable). */
export interface JournalEntryValue {
  id: string;
  parentId: string | null;
  timestamp: string;
  type: string;
}

/**
 * A pi-ai message as the wire carries it (events, journal entries): the members every role has, the rest
 * open. Written without an index signature so pi-ai's own message interfaces are assignable to it, and
 * without pi-ai's types so the wire (and the extension API above it) does not depend on pi-ai.
 */
export interface WireMessage {
  role: "user" | "assistant" | "toolResult";
  timestamp: number;
}

/**
 * Every shared definition of the protocol description (`$defs`), by name, with the TypeScript type of
 * its values: what `ref(name)` points at and what the compiler checks a handler's result against.
 * `WIRE_DEFS`, `EVENT_DEFS` and `Limits` together must define exactly these names (checked where the
 * description is built, core/schema/protocol-schema.ts).
 */
export interface WireTypes {
  ThinkingLevel: ThinkingLevel;
  Delivery: Delivery;
  PublicModel: PublicModel;
  CatalogModel: CatalogModel;
  ModelState: ModelState;
  Activity: Activity;
  QueuedInput: QueuedInput;
  WorkPlan: WorkPlan;
  SessionState: SessionState;
  ContextUsage: ContextUsage;
  SandboxState: SandboxState;
  CompletionEvidence: CompletionEvidence;
  MessageItem: { index: number } & Record<string, unknown>;
  OperationOutcome: OperationOutcome;
  OutcomeItem: { index: number } & OperationOutcome;
  CommandDescriptor: { name: string; description?: string; source: "builtin" | "global" | "project" | "cli" };
  PermissionRule: PermissionRule;
  SourcedPermissionRule: SourcedPermissionRule;
  DecidingRule: DecidingRule;
  DelegationOrigin: DelegationOrigin;
  PermissionRequest: PermissionRequest;
  ContextSummary: ContextSummary;
  UsageTotals: UsageTotals;
  SessionUsage: SessionUsage;
  BudgetSettings: BudgetSettings;
  BudgetHit: BudgetHit;
  BudgetReport: BudgetReport;
  Message: WireMessage;
  JournalEntry: JournalEntryValue;
  Limits: Record<string, number>;
}
