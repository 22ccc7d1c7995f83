/** `zi/testing`: helpers for unit-testing a method handler alone (docs/method-families.md). */
export { resolveHandler, type HandlerInstances } from "./resolve-handler.js";
export { requestContext } from "./request-context.js";
export type { RequestContext, RpcHandler } from "../kernel/rpc-handler.js";
