import type { MethodFamily } from "../../core/family/family-api.js";
import { SetEventsMethod } from "./set-events.method.js";

/** Methods owned by the RPC connection itself, not by the session. */
export const connectionFamily = {
  family: "connection",
  methods: { "connection.set_events": SetEventsMethod },
} satisfies MethodFamily;
