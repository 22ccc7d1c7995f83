import type { BudgetSettings } from "../wire/budget-types.js";
import type { SandboxControl } from "../sandbox/sandbox-control.js";
import type { ToolCallGuard } from "./tool-call-gate.js";
import type { FileCheckpoints } from "./file-checkpoints.js";
import type { ContextSummary } from "../wire/context-summary.js";
import type { SessionJournal } from "../journal/session-journal.js";
import type { ModelRuntime } from "../models/model-runtime.js";
import type { AgentTool } from "./agent-tool.js";
import type { QueueMode, ThinkingLevel } from "../wire/session-types.js";

/** What the session needs from its journal; `SessionJournal` is the production implementation. */
export type SessionJournalLike = Pick<
  SessionJournal,
  | "sessionId"
  | "messageCount"
  | "workPlan"
  | "model"
  | "thinkingLevel"
  | "append"
  | "entries"
  | "getMessagePage"
  | "getOutcomePage"
  | "buildContextMessages"
  | "toOutcome"
  | "leafId"
  | "pathEntries"
>;

/** Persists a settings patch (`SettingsStore.write` in production). */
export interface SettingsWriter {
  write(scope: "global" | "project", patch: Record<string, unknown>): void | Promise<void>;
}

export interface RetrySettings {
  /** Retries after the first failed call (so up to maxAttempts + 1 calls). 0 disables retrying. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface CompactionSettings {
  enabled: boolean;
  /** Compact after a turn once the context uses more than `contextWindow - reserveTokens`. */
  reserveTokens: number;
  /** Roughly how many tokens of the newest messages survive a compaction verbatim. */
  keepRecentTokens: number;
}

export interface SessionSettings {
  /** The preferred level (e.g. from settings.json); the effective one is clamped to the model. */
  thinkingLevel?: ThinkingLevel;
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
}

/**
 * A system prompt computed at the start of each run from the tools offered in it (the context module's
 * builder in production); a plain string is used as it is.
 */
export type SystemPromptSource = (tools: readonly AgentTool[]) => Promise<string>;

export interface AgentSessionOptions {
  runtime: ModelRuntime;
  journal: SessionJournalLike;
  cwd: string;
  tools?: AgentTool[];
  /** Checks each tool call before it runs; default: this session's own gate. Delegated children get their parent's. */
  toolGuard?: ToolCallGuard;
  /** Where `bash` runs (docs/sandbox.md); a delegated child shares its parent's. Absent: a sandbox that is `off`. */
  sandbox?: SandboxControl;
  systemPrompt?: string | SystemPromptSource;
  /** What the system prompt is built from, for `session.get_context`; undefined until loaded. */
  describeContext?: () => ContextSummary | undefined;
  settings?: SessionSettings;
  settingsWriter?: SettingsWriter;
  retry?: Partial<RetrySettings>;
  compaction?: Partial<CompactionSettings>;
  /** Run and session budgets from settings (`budget`); `session.set_budget` replaces them. */
  budget?: BudgetSettings;
  /** Keeps what write and edit change, for `session.rewind` (none: not covered, e.g. delegated children). */
  checkpoints?: FileCheckpoints;
  /** Receives one-line warnings (stderr by default). */
  warn?: (message: string) => void;
}

export const DEFAULT_RETRY: RetrySettings = { maxAttempts: 3, baseDelayMs: 2000, maxDelayMs: 60_000 };
export const DEFAULT_COMPACTION: CompactionSettings = { enabled: true, reserveTokens: 16_384, keepRecentTokens: 20_000 };
