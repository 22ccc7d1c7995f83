import { lazy, type MethodFamily } from "../../core/family/family-api.js";

/** Methods owned by the RPC connection itself, not by the session. */
export const connectionFamily = {
  family: "connection",
  methods: { "connection.set_events": lazy(() => import("./set-events.method.js"), "SetEventsMethod") },
} satisfies MethodFamily;
