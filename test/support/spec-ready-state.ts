/**
 * The `state` of the `ready` example (docs/protocol.md), less the `sessionId`: what a new session
 * without a model must report, through the session and through the wire alike.
 */
export const SPEC_READY_STATE = {
  activity: { type: "idle" },
  model: { type: "unselected" },
  thinkingLevel: "off",
  supportedThinkingLevels: ["off"],
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  queuedInputs: { steering: [], followUp: [] },
  workPlan: { revision: 0, steps: [] },
  messageCount: 0,
  compaction: { type: "idle" },
  retry: { type: "idle" },
  contextUsage: { type: "unavailable", reason: "no_model" },
  // Zi's addition to the spec's example: tool calls waiting for a permission decision (docs/permissions.md).
  permissionRequests: [],
  sandbox: { mode: "off", network: false, writableRoots: [], support: { status: "unchecked" } },
} as const;
