/** `zi/client`: the typed client library's public entry point. Node built-ins only at runtime. */
export { ZiClient, type ZiClientOptions, type PromptOptions, type PromptAndAwaitOptions, type PromptCompletion } from "./zi-client.js";
export { ZiConnection, type ExitStatus, type ZiConnectionOptions, type EventListener } from "./zi-connection.js";
export { ZiRpcError, type ZiErrorCode, type ZiErrorSource, type ClientErrorCode } from "./zi-rpc-error.js";
export { CompletionWatch, type SettledCompletion, type SettleOptions } from "./completion-watch.js";
export { JournalPager, type Page, type PagerOptions } from "./journal-pager.js";
export { EventQueue } from "./event-queue.js";
export { PermissionAnswerer, type PermissionAnswer, type PermissionHandler } from "./permission-answerer.js";
export type * from "./protocol-types.js";
