import { describe, expect, it } from "@jest/globals";
import { EVENT_SCHEMAS } from "../../../core/wire/event-schemas.js";
import type { AgentSessionEvent, SessionEventOf, SessionEventType } from "../../../core/wire/session-types.js";

/**
 * The event union is derived from the event schemas (core/wire/event-schemas.ts): one truth. Each
 * `@ts-expect-error` below is a mismatch the compiler must refuse (`npm run typecheck` fails if one
 * stops being an error, as an unused directive).
 */

// @ts-expect-error a required field missing (tool_execution_end's toolName)
export const missingField: AgentSessionEvent = { type: "tool_execution_end", toolCallId: "t", result: {}, isError: false };

// @ts-expect-error a value outside the schema's literal (permission_resolved has no `no_client` decider)
export const wrongLiteral: SessionEventOf<"permission_resolved"> = { type: "permission_resolved", requestId: "r", toolCallId: "t", toolName: "x", decision: "deny", decidedBy: "no_client" };

// @ts-expect-error a field the closed schema does not list
export const extraField: SessionEventOf<"leaf_changed"> = { type: "leaf_changed", leafId: "a", targetId: "b", messageCount: 1, summary: "s" };

// @ts-expect-error an event type no schema describes
export const unknownType: AgentSessionEvent = { type: "a_future_event" };

/** A front end's switch that forgets one type fails its `never` check (as the ACP and pi-RPC mappers would). */
export function forgetsOne(event: AgentSessionEvent): string {
  switch (event.type) {
    case "agent_start":
      return "start";
    case "turn_start": case "message_start": case "message_update": case "message_end": case "tool_execution_start":
    case "tool_execution_update": case "tool_execution_end": case "turn_end": case "queue_update": case "activity_changed":
    case "model_changed": case "thinking_level_changed": case "compaction_start": case "compaction_end": case "auto_retry_start":
    case "auto_retry_end": case "entry_appended": case "leaf_changed": case "session_switched": case "operation_outcome":
    case "work_plan_changed": case "extension_error": case "mcp_server_changed": case "permission_requested": case "permission_resolved":
      return "ignored";
    default: {
      // @ts-expect-error agent_end is neither handled nor ignored
      const unhandled: never = event;
      return String(unhandled);
    }
  }
}

/** Every type of the union, listed once: the compiler checks the list is complete and has no stranger. */
const EVERY_TYPE: { [K in SessionEventType]: true } = {
  agent_start: true,
  turn_start: true,
  message_start: true,
  message_update: true,
  message_end: true,
  tool_execution_start: true,
  tool_execution_update: true,
  tool_execution_end: true,
  turn_end: true,
  agent_end: true,
  queue_update: true,
  activity_changed: true,
  model_changed: true,
  thinking_level_changed: true,
  compaction_start: true,
  compaction_end: true,
  auto_retry_start: true,
  auto_retry_end: true,
  entry_appended: true,
  leaf_changed: true,
  session_switched: true,
  operation_outcome: true,
  work_plan_changed: true,
  extension_error: true,
  mcp_server_changed: true,
  permission_requested: true,
  permission_resolved: true,
};

describe("the session event union is the event schemas' (core/wire/event-schemas.ts)", () => {
  it("has exactly the schemas' types, each schema fixing its own `type`", () => {
    expect([...EVENT_SCHEMAS.keys()].sort()).toEqual(Object.keys(EVERY_TYPE).sort());
    for (const [type, schema] of EVENT_SCHEMAS) {
      expect(schema.properties?.type).toEqual({ const: type });
      expect(schema.required).toContain("type");
      expect(schema.additionalProperties).toBe(false);
    }
  });

  it("an optional field of the schema is optional in the type, a required one required", () => {
    const end: SessionEventOf<"agent_end"> = { type: "agent_end", reason: "completed" };
    expect(EVENT_SCHEMAS.get("agent_end")?.required).toEqual(["type", "reason"]);
    expect(Object.keys(end)).toEqual(EVENT_SCHEMAS.get("agent_end")?.required);
  });
});
