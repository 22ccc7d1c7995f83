import { RpcError } from "../kernel/rpc-error.js";
import type { SessionCatalog } from "../journal/session-catalog.js";
import type { SessionsPort } from "../ports/sessions.port.js";
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
import type { SessionTree } from "./session-tree.js";

export interface SessionLibraryOptions {
  /** The journals under ZI_HOME. */
  catalog: SessionCatalog;
  /** The connection's working directory: `scope: "cwd"` lists the sessions started in it. */
  cwd: string;
}

/**
 * The SESSIONS port: `session.list` over the journals under ZI_HOME (the one place sessions are
 * listed), and the rest through the connection's SessionTree. Without one (a host that only lists,
 * such as ACP's in-process methods) the tree methods answer operation_failed.
 */
export class SessionLibrary implements SessionsPort {
  constructor(
    private readonly options: SessionLibraryOptions,
    private readonly sessionTree?: SessionTree,
  ) {}

  list(scope: SessionListScope, start: number, limit: number): Promise<SessionListPage> {
    return this.options.catalog.list(scope === "cwd" ? this.options.cwd : undefined, start, limit);
  }

  getTree(start: number, limit: number): TreePage {
    return this.tree().getTree(start, limit);
  }

  navigate(entryId: string, summary: string | undefined): Promise<LeafMove> {
    return this.tree().navigate(entryId, summary);
  }

  fork(entryId: string, switchTo: boolean): Promise<SessionSwitch> {
    return this.tree().fork(entryId, switchTo);
  }

  newSession(): Promise<SessionSwitch> {
    return this.tree().newSession();
  }

  switchSession(target: { path?: string; id?: string }): Promise<SessionSwitch> {
    return this.tree().switchSession(target);
  }

  rewind(entryId: string, restore: RewindRestore, force: boolean): Promise<RewindResult> {
    return this.tree().rewind(entryId, restore, force);
  }

  export(format: ExportFormat, path: string | undefined): Promise<ExportResult> {
    return this.tree().export(format, path);
  }

  /** Closes the current journal (the module's dispose). */
  close(): void {
    this.sessionTree?.close();
  }

  private tree(): SessionTree {
    if (!this.sessionTree) throw new RpcError("operation_failed", "this connection has no session tree: only session.list is served here");
    return this.sessionTree;
  }
}
