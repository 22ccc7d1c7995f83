import type { ExtensionOrigin } from "../ports/commands.port.js";
import type { AgentSession } from "../session/agent-session.js";
import type { ZiExtension } from "./extension-api.js";

/** What extensions reach of the session (AgentSession in production). */
export type ExtensionSession = Pick<
  AgentSession,
  "appendCustomEntry" | "sendCustomMessage" | "recordOutcome" | "replaceWorkPlan" | "registerTool" | "addToolCallHook" | "getState" | "subscribe" | "announce" | "removeTool" | "onBeforeModelCall"
>;

/** An idle-only operation that `session.interrupt` aborts (AgentSession.runExclusive). */
export type ExclusiveRunner = Pick<AgentSession, "runExclusive">;

/** Who an extension is: `name` appears in diagnostics and `extension_error` events. */
export interface ExtensionIdentity {
  name: string;
  origin: ExtensionOrigin;
}

/** A file or directory found on disk (or named by `--extension`); `problem` when it cannot be loaded. */
export interface ExtensionCandidate extends ExtensionIdentity {
  /** The module file to import (a directory's index file). */
  entry: string;
  problem?: string;
}

/** A candidate after its module was imported: the default export, or why there is none. */
export type ImportedExtension = ExtensionIdentity & ({ activate: ZiExtension } | { problem: string });
