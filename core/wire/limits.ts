import { MAX_JSON_DEPTH } from "./json-depth.js";

const MiB = 1024 * 1024;
const KiB = 1024;

/**
 * Every bound of the protocol, as numbers. `ready.limits` carries this object as it is, so clients can
 * check a request before they send it.
 */
export const RPC_LIMITS = Object.freeze({
  maxRecordBytes: 16 * MiB,
  maxPromptTextBytes: 8 * MiB,
  /** session.prompt `images`: at most this many per prompt, and this many bytes of base64 `data` in all. */
  maxPromptImages: 16,
  maxPromptImageBytes: 6 * MiB,
  maxCompletionIdBytes: 256,
  maxCompletionTextBytes: 50 * KiB,
  maxCompletionErrorBytes: 8 * KiB,
  maxMessagePageItems: 100,
  maxMessagePageBytes: 8 * MiB,
  maxOutcomePageItems: 100,
  maxOutcomeEvidenceBytes: 8 * KiB,
  maxRequestIdBytes: 256,
  maxModelProviderBytes: 256,
  maxModelIdBytes: 256,
  maxCommandNameBytes: 64,
  maxCommandArgumentsBytes: 256 * KiB,
  /** Zi's own bound (the protocol sets none): arrays and objects nested in one record, the record counting 1. */
  maxJsonDepth: MAX_JSON_DEPTH,
  maxInFlight: 32,
  reservedInterrupts: 1,
  maxPendingOutputRecords: 1024,
  maxPendingOutputBytes: 32 * MiB,
  maxErrorDetails: 64,
  maxErrorDetailsBytes: 16 * KiB,
  maxStandInBytes: 1 * MiB,
  maxQueuedInputs: 64,
  maxQueuedInputBytes: 16 * MiB,
  maxQueuedInputPreviewBytes: 1 * KiB,
  settlementMs: 5000,
  /** `delegate` tool: tasks in one parallel call, and children running at once (docs/delegation.md). */
  maxDelegateTasks: 8,
  maxConcurrentSubagents: 4,
});

export type RpcLimits = { -readonly [K in keyof typeof RPC_LIMITS]: number };
