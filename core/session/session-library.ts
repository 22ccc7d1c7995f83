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

export interface SessionLibraryOptions {
  /** The journals under ZI_HOME; null under `--no-session` with no ZI_HOME sessions to list. */
  catalog: SessionCatalog;
  /** The connection's working directory: `scope: "cwd"` lists the sessions started in it. */
  cwd: string;
}

const notYet = (method: string): RpcError => new RpcError("operation_failed", `${method} is not available in this build yet`);

/**
 * The SESSIONS port: the journals under ZI_HOME and the connection's one parent session as a tree.
 */
export class SessionLibrary implements SessionsPort {
  constructor(private readonly options: SessionLibraryOptions) {}

  list(scope: SessionListScope, start: number, limit: number): Promise<SessionListPage> {
    return this.options.catalog.list(scope === "cwd" ? this.options.cwd : undefined, start, limit);
  }

  getTree(_start: number, _limit: number): TreePage {
    throw notYet("session.get_tree");
  }

  async navigate(_entryId: string, _summary: string | undefined): Promise<LeafMove> {
    throw notYet("session.navigate");
  }

  async fork(_entryId: string): Promise<SessionSwitch> {
    throw notYet("session.fork");
  }

  async newSession(): Promise<SessionSwitch> {
    throw notYet("session.new");
  }

  async switchSession(_target: { path?: string; id?: string }): Promise<SessionSwitch> {
    throw notYet("session.switch");
  }

  async rewind(_entryId: string, _restore: RewindRestore, _force: boolean): Promise<RewindResult> {
    throw notYet("session.rewind");
  }

  async export(_format: ExportFormat, _path: string | undefined): Promise<ExportResult> {
    throw notYet("session.export");
  }
}
