import type { CommandPort } from "../ports/commands.port.js";
import type { ModelPort } from "../ports/model.port.js";
import type { SessionPort } from "../ports/session.port.js";
import type { SessionsPort } from "../ports/sessions.port.js";
import type { ThinkingPort } from "../ports/thinking.port.js";
import type { SessionEventListener } from "../wire/session-types.js";

/** Everything the RPC application needs from the domain below it, created once per process. */
export interface SessionModule {
  readonly session: SessionPort;
  /** The journals under ZI_HOME and the session as a tree (`session.list`, `session.fork`, …). */
  readonly sessions: SessionsPort;
  readonly models: ModelPort;
  readonly thinking: ThinkingPort;
  readonly commands: CommandPort;
  /** What the connection forwards as `session_event` frames: the session's events and `extension_error`. */
  readonly events: { subscribe(listener: SessionEventListener): () => void };
  /**
   * Called once `ready` has been written: deferred startup work (plugins, extensions). Only methods
   * marked `awaitsStartup` wait for it; a rejection is a startup failure (exit code 1).
   */
  afterReady(): Promise<void>;
  /**
   * Resolves a resumed session's model, or else the `defaultModel` of settings.json; for one-shot
   * modes, which need a model before their first prompt. RPC clients select models themselves.
   */
  restoreModel(): Promise<void>;
  /** The client disconnected: discard queued input and interrupt active work, resolving once settled. */
  cancel(): Promise<void>;
  /**
   * An uncaught exception or unhandled rejection: reported as the `extension_error` of the extension it
   * came from (true), or false when no extension can be named.
   */
  reportUncaught?(kind: "exception" | "rejection", error: unknown): boolean;
  /** The journal file (`--session` resumes it); null for `--no-session`. */
  readonly sessionFile?: string | null;
  /**
   * Journals a `custom` entry (invisible to the model): what a front end keeps of its own choices
   * across reconnects (ACP's mode). Throws when the journal cannot take it.
   */
  journalEntry?(customType: string, data: unknown): void;
  /** Releases files and providers; the CLI calls it after the connection has settled. */
  dispose(): Promise<void>;
}
