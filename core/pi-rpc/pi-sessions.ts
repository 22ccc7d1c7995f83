import { resolve } from "node:path";
import { RpcError } from "../kernel/rpc-error.js";
import { SESSION_TREE_LIMITS, type ExportResult, type SessionListPage, type SessionSwitch, type TreeEntryItem, type TreePage } from "../wire/session-tree-types.js";
import type { MethodCalls } from "./method-calls.js";

/** How the process's first session was opened (`--no-session`, `--session FILE`). */
export interface PiJournalStart {
  noSession: boolean;
  sessionFile?: string;
}

/**
 * pi's session commands on Zi's session-tree methods (`session.new`, `switch`, `fork`, `get_tree`,
 * `export`, `list`): pi's fork point, its fork messages, and the `sessionFile` pi's state reports.
 */
export class PiSessions {
  /** The journal file of a session, once known (`null`: in memory); pi's `sessionFile`. */
  private journal: { sessionId: string; path: string | null } | undefined;

  constructor(
    private readonly methods: MethodCalls,
    private readonly start: PiJournalStart,
  ) {}

  async newSession(): Promise<void> {
    this.switched(await this.methods.call("session.new", {}));
  }

  async switchSession(path: unknown): Promise<void> {
    this.switched(await this.methods.call("session.switch", { path }));
  }

  /** The connection's session was replaced (`session.new`, `fork`, `switch`): its journal is in the result. */
  switched(result: unknown): void {
    const { sessionId, path } = result as SessionSwitch;
    this.journal = { sessionId, path };
  }

  /**
   * pi's `sessionFile`: `--session`'s file, a replacement's path, or else the journal `session.list`
   * names for this session (looked up once); omitted for a session kept in memory.
   */
  async sessionFile(sessionId: string): Promise<string | undefined> {
    if (this.journal?.sessionId !== sessionId) {
      if (this.journal === undefined && this.start.noSession) this.journal = { sessionId, path: null };
      else if (this.journal === undefined && this.start.sessionFile !== undefined) this.journal = { sessionId, path: resolve(this.start.sessionFile) };
      else if (this.methods.has("session.list")) {
        for (let start: number | null = 0; start !== null && this.journal?.sessionId !== sessionId; ) {
          const page: SessionListPage = await this.methods.call<SessionListPage>("session.list", { start, limit: SESSION_TREE_LIMITS.maxSessionPageItems });
          const found = page.sessions.find((item) => item.id === sessionId);
          if (found) this.journal = { sessionId, path: found.path };
          start = page.nextStart;
        }
      }
    }
    return this.journal?.sessionId === sessionId ? (this.journal.path ?? undefined) : undefined;
  }

  async exportHtml(outputPath: unknown): Promise<{ path: string }> {
    const result = await this.methods.call<ExportResult>("session.export", { format: "html", ...(typeof outputPath === "string" ? { path: outputPath } : {}) });
    return { path: result.path };
  }


  /**
   * pi forks *before* a user message (the new session ends at its parent; the text goes back to the
   * client's editor); Zi's `session.fork` keeps the entry, so Zi forks at the entry's parent, and a
   * first message has none: a new, empty session.
   */
  async fork(entryId: string): Promise<{ text: string; cancelled: boolean }> {
    const { byId, path } = await this.tree();
    const entry = byId.get(entryId);
    if (!entry || entry.role !== "user" || !path.includes(entry)) throw new RpcError("not_found", "Invalid entry ID for forking");
    this.switched(await (entry.parentId === null ? this.methods.call("session.new", {}) : this.methods.call("session.fork", { entryId: entry.parentId })));
    return { text: entry.label, cancelled: false };
  }

  /** The user messages on the current branch (root to leaf), with their entry ids: what pi offers to fork from. */
  async forkMessages(): Promise<{ entryId: string; text: string }[]> {
    const { path } = await this.tree();
    return path.filter((entry) => entry.role === "user").map((entry) => ({ entryId: entry.id, text: entry.label }));
  }

  /** Every entry of the journal (`session.get_tree`, page by page) and the branch from the root to the leaf. */
  private async tree(): Promise<{ byId: Map<string, TreeEntryItem>; path: TreeEntryItem[] }> {
    const byId = new Map<string, TreeEntryItem>();
    let leafId = "";
    for (let start: number | null = 0; start !== null; ) {
      const page: TreePage = await this.methods.call<TreePage>("session.get_tree", { start, limit: SESSION_TREE_LIMITS.maxTreePageItems });
      for (const entry of page.entries) byId.set(entry.id, entry);
      leafId = page.leafId;
      start = page.nextStart;
    }
    const path: TreeEntryItem[] = [];
    for (let entry = byId.get(leafId); entry && path.length <= byId.size; entry = entry.parentId === null ? undefined : byId.get(entry.parentId)) path.unshift(entry);
    return { byId, path };
  }
}
