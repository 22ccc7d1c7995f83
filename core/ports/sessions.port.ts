import type {
  ExportFormat,
  ExportResult,
  LeafMove,
  RewindRestore,
  RewindResult,
  SessionListPage,
  SessionListScope,
  SessionSwitch,
  TreePage,
} from "../wire/session-tree-types.js";

/** Injection token for the sessions port: `@inject(SESSIONS) sessions: SessionsPort`. */
export const SESSIONS = Symbol.for("zi.port.sessions");

/**
 * What the session-tree methods need: the journals under ZI_HOME (listing), the connection's journal
 * as a tree (get_tree, navigate, rewind, export) and replacing the connection's one parent session
 * (new, fork, switch). Those that change the session are idle-only. Failures are RpcError
 * (`not_found`, `operation_failed` with the reason).
 */
export interface SessionsPort {
  list(scope: SessionListScope, start: number, limit: number): Promise<SessionListPage>;
  getTree(start: number, limit: number): TreePage;
  navigate(entryId: string, summary: string | undefined): Promise<LeafMove>;
  /** `switchTo` false: the new journal is written and described, the connection's session stays. */
  fork(entryId: string, switchTo: boolean): Promise<SessionSwitch>;
  newSession(): Promise<SessionSwitch>;
  switchSession(target: { path?: string; id?: string }): Promise<SessionSwitch>;
  rewind(entryId: string, restore: RewindRestore, force: boolean): Promise<RewindResult>;
  export(format: ExportFormat, path: string | undefined): Promise<ExportResult>;
}
