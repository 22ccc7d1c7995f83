/**
 * `zi/testing`: a family author's test seams (docs/method-families.md). A handler alone, with fakes
 * by token (`resolveHandler`, `requestContext`); or any set of families served in memory through the
 * real composition, with per-token overrides (`serveFamilies`). Both check every result against the
 * schema its method declares.
 */
export { resolveHandler, type HandlerInstances } from "./resolve-handler.js";
export { requestContext } from "./request-context.js";
export { AnsweredError, TestApplication, serveFamilies, type ServeOptions } from "./test-application.js";
export { MemoryOutput } from "./memory-output.js";
export { TestSessionModule } from "./test-session-module.js";
export type { RequestContext, RpcHandler } from "../kernel/rpc-handler.js";
