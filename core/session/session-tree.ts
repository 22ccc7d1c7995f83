import { randomUuid } from "../journal/random-uuid.js";
import { closeSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync, fsyncSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { RpcError } from "../kernel/rpc-error.js";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import { entryLabel, entryRole } from "../journal/entry-label.js";
import type { JournalEntry, RewindPlanFile } from "../journal/journal-types.js";
import type { SessionCatalog } from "../journal/session-catalog.js";
import { SessionHtmlExport } from "../journal/session-html-export.js";
import { SessionJournal } from "../journal/session-journal.js";
import type { SessionsPort } from "../ports/sessions.port.js";
import type {
  ExportFormat,
  ExportResult,
  LeafMove,
  RewindFile,
  RewindRestore,
  RewindResult,
  SessionSwitch,
  TreePage,
} from "../wire/session-tree-types.js";
import type { AgentSession } from "./agent-session.js";
import { FileCheckpoints } from "./file-checkpoints.js";

/** Said in every rewind result (and docs/sessions.md): what no checkpoint covers. */
export const REWIND_NOT_COVERED =
  "Only files changed by Zi's write and edit tools are restored; changes made by bash (or any other program) are not covered, and .git is never touched.";

export interface SessionTreeOptions {
  /** Finds a journal by session id (`session.switch { id }`). */
  catalog: SessionCatalog;
  checkpoints: CheckpointStore;
  /** The connection's working directory: `scope: "cwd"` and relative paths. */
  cwd: string;
  /** Where new and forked journals go; null under `--no-session` (journals stay in memory). */
  sessionsDir: string | null;
  exportsDir: string;
  redact: (jsonLine: string) => string;
}

/** Files a refused rewind names in its message; the count says how many more. */
const MAX_REPORTED_CONFLICTS = 20;

type FileChange = { path: string; restore: string | null; expected: string | null };

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The connection's one parent session as a tree (the SESSIONS port less the listing). Owns the
 * session's current journal: new, fork and switch put another in place (AgentSession.replaceJournal)
 * and close the one replaced.
 */
export class SessionTree implements Omit<SessionsPort, "list"> {
  constructor(
    private readonly options: SessionTreeOptions,
    private readonly session: AgentSession,
    private journal: SessionJournal,
  ) {}

  /** The journal the session writes now. */
  get current(): SessionJournal {
    return this.journal;
  }

  getTree(start: number, limit: number): TreePage {
    const total = this.journal.entryCount;
    const entries: TreePage["entries"] = [];
    const end = Math.min(total, start + limit);
    for (let seq = start; seq < end; seq++) {
      const entry = this.journal.entryAt(seq)!;
      entries.push({ id: entry.id, parentId: entry.parentId, type: entry.type, role: entryRole(entry), label: entryLabel(entry), timestamp: entry.timestamp });
    }
    return { start, total, nextStart: end < total ? end : null, leafId: this.journal.leafId, entries };
  }

  async navigate(entryId: string, summary: string | undefined): Promise<LeafMove> {
    this.session.assertIdle();
    this.entry(entryId);
    const entry = await this.session.moveLeaf(entryId, summary);
    return { leafId: entry.id, messageCount: this.journal.messageCount };
  }

  /**
   * Idle only, switching or not (a fork taken mid-turn could end in a tool call without its result).
   * Without `switchTo` the new journal is written, synced and closed, and described: it needs a file.
   */
  async fork(entryId: string, switchTo: boolean): Promise<SessionSwitch> {
    this.session.assertIdle();
    this.entry(entryId);
    const path = this.journal.pathTo(entryId)!.filter((entry) => entry.type !== "session");
    const dir = this.options.sessionsDir;
    if (!switchTo) {
      if (dir === null) throw new RpcError("operation_failed", "a fork that does not switch needs a journal file, and this connection keeps its sessions in memory (--no-session)");
      const written = SessionJournal.fork(dir, randomUuid(), this.journal.cwd, path, this.journal.file, { redact: this.options.redact });
      const result = SessionTree.describe(written);
      written.close();
      return result;
    }
    const next =
      dir === null
        ? SessionJournal.inMemory(randomUuid(), this.journal.cwd, { redact: this.options.redact })
        : SessionJournal.fork(dir, randomUuid(), this.journal.cwd, path, this.journal.file, { redact: this.options.redact });
    // In memory, entries get new ids: a branch entry would name a parent that is not there, and is left out.
    if (dir === null) for (const entry of path) if (entry.type !== "branch") next.append(SessionTree.input(entry));
    return this.replace(next, "fork");
  }

  async newSession(): Promise<SessionSwitch> {
    this.session.assertIdle();
    const dir = this.options.sessionsDir;
    const id = randomUuid();
    const next = dir === null ? SessionJournal.inMemory(id, this.options.cwd, { redact: this.options.redact }) : SessionJournal.create(dir, id, this.options.cwd, { redact: this.options.redact });
    return this.replace(next, "new");
  }

  async switchSession(target: { path?: string; id?: string }): Promise<SessionSwitch> {
    this.session.assertIdle();
    let file: string;
    if (target.id !== undefined) {
      const found = await this.options.catalog.find(target.id);
      if (!found) throw new RpcError("not_found", `no session ${target.id} under ZI_HOME`);
      file = found.path;
    } else {
      file = resolve(this.options.cwd, target.path!);
    }
    if (this.journal.file !== null && resolve(this.journal.file) === file) return this.switchResult();
    const next = SessionJournal.open(file, { redact: this.options.redact });
    await SessionTree.finishRewind(next, this.options.checkpoints);
    return this.replace(next, "switch");
  }

  async rewind(entryId: string, restore: RewindRestore, force: boolean): Promise<RewindResult> {
    this.session.assertIdle();
    this.entry(entryId);
    let files: RewindFile[] = [];
    if (restore !== "conversation") files = await this.restoreFiles(entryId, force);
    if (restore !== "files") await this.session.moveLeaf(entryId, undefined);
    return { leafId: this.journal.leafId, messageCount: this.journal.messageCount, files, notCovered: REWIND_NOT_COVERED };
  }

  async export(format: ExportFormat, path: string | undefined): Promise<ExportResult> {
    const out = path === undefined ? resolve(this.options.exportsDir, `${this.journal.sessionId}.${format}`) : resolve(this.options.cwd, path);
    const text = format === "html" ? SessionHtmlExport.render([...this.journal.entries()]) : [...this.journal.entries()].map((entry) => JSON.stringify(entry)).join("\n") + "\n";
    try {
      mkdirSync(dirname(out), { recursive: true, mode: 0o700 });
      writeFileSync(out, text, { mode: 0o600 });
    } catch (error) {
      throw new RpcError("operation_failed", `the export could not be written to ${out}: ${describe(error)}`);
    }
    return { format, path: out, bytes: Buffer.byteLength(text) };
  }

  /** Closes the current journal (the module's dispose). */
  close(): void {
    this.journal.close();
  }

  /**
   * A rewind of files that did not finish (a crash between its `begin` and `end` entries) is finished:
   * its files get the contents it set out to restore. Called on every journal Zi opens to work in.
   */
  static async finishRewind(journal: SessionJournal, store: CheckpointStore): Promise<void> {
    let pending: Extract<JournalEntry, { type: "rewind" }> | undefined;
    for (const entry of journal.pathEntries()) {
      if (entry.type !== "rewind") continue;
      pending = entry.phase === "begin" ? entry : undefined;
    }
    if (!pending) return;
    const problems = SessionTree.writeFiles(pending.files ?? [], store);
    process.stderr.write(`zi: session journal ${journal.file}: finished an interrupted rewind to ${pending.targetId}${problems.length > 0 ? ` (${problems.join("; ")})` : ""}\n`);
    journal.append({ type: "rewind", phase: "end", targetId: pending.targetId });
  }

  private async replace(next: SessionJournal, reason: "new" | "fork" | "switch"): Promise<SessionSwitch> {
    let previous;
    try {
      previous = await this.session.replaceJournal(next, (state) => ({ type: "session_switched", reason, path: next.file, state }));
    } catch (error) {
      next.close();
      throw error;
    }
    this.journal = next;
    if (previous instanceof SessionJournal) previous.close();
    return this.switchResult();
  }

  private switchResult(): SessionSwitch {
    return SessionTree.describe(this.journal);
  }

  private static describe(journal: SessionJournal): SessionSwitch {
    return { sessionId: journal.sessionId, path: journal.file, leafId: journal.leafId, messageCount: journal.messageCount };
  }

  private entry(entryId: string): JournalEntry {
    const entry = this.journal.getEntry(entryId);
    if (!entry) throw new RpcError("not_found", `no entry ${entryId} in this session`);
    return entry;
  }

  /**
   * The files Zi's tools changed on the current path after the point the path to `entryId` leaves it:
   * each gets its content from before the first such change. A file whose content is no longer what
   * the last change left refuses the whole rewind (per-file report) unless `force`.
   */
  private async restoreFiles(entryId: string, force: boolean): Promise<RewindFile[]> {
    const kept = new Set(this.journal.pathTo(entryId)!.map((entry) => entry.id));
    const changes = new Map<string, FileChange>();
    for (const entry of this.journal.pathEntries()) {
      if (entry.type !== "file_checkpoint" || kept.has(entry.id)) continue;
      const known = changes.get(entry.path);
      if (known) known.expected = entry.after;
      else changes.set(entry.path, { path: entry.path, restore: entry.before, expected: entry.after });
    }
    const report: RewindFile[] = [];
    const plan: RewindPlanFile[] = [];
    for (const change of changes.values()) {
      const now = FileCheckpoints.state(change.path);
      if (now === change.restore) {
        report.push({ path: change.path, action: "unchanged" });
        continue;
      }
      if (change.restore !== null && this.options.checkpoints.get(change.restore) === undefined) {
        report.push({ path: change.path, action: "conflict", reason: "its earlier content is no longer in the checkpoint store" });
        continue;
      }
      if (now !== change.expected && !force) {
        report.push({ path: change.path, action: "conflict", reason: now === undefined ? "it is no longer a regular file Zi can restore" : "it was changed since Zi's tools last wrote it" });
        continue;
      }
      // What the file holds now is kept too, so an interrupted rewind's record names both sides.
      const current = now === undefined || now === null ? null : FileCheckpoints.state(change.path, this.options.checkpoints) ?? null;
      plan.push({ path: change.path, restore: change.restore, current });
      report.push({ path: change.path, action: change.restore === null ? "deleted" : "restored" });
    }
    const conflicts = report.filter((file) => file.action === "conflict");
    if (conflicts.length > 0) {
      // A response error carries code and message only (docs/protocol.md): the report is the message.
      const shown = conflicts.slice(0, MAX_REPORTED_CONFLICTS).map((file) => `${file.path}: ${file.reason}`);
      const more = conflicts.length > shown.length ? `; and ${conflicts.length - shown.length} more` : "";
      throw new RpcError("operation_failed", `rewind refused, nothing was changed (force restores changed files anyway): ${shown.join("; ")}${more}`);
    }
    if (plan.length === 0) return report;
    await this.session.record({ type: "rewind", phase: "begin", targetId: entryId, files: plan });
    const problems = SessionTree.writeFiles(plan, this.options.checkpoints);
    await this.session.record({ type: "rewind", phase: "end", targetId: entryId });
    if (problems.length > 0) throw new RpcError("operation_failed", `rewind could not restore every file: ${problems.join("; ")}`);
    return report;
  }

  /** Writes each file's content to restore (atomically: a temporary file renamed over it) or deletes it; returns the problems. */
  private static writeFiles(files: readonly RewindPlanFile[], store: CheckpointStore): string[] {
    const problems: string[] = [];
    for (const file of files) {
      try {
        if (file.path.split("/").includes(".git")) continue;
        if (file.restore === null) {
          try {
            unlinkSync(file.path);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          }
          continue;
        }
        const bytes = store.get(file.restore);
        if (!bytes) throw new Error("its earlier content is no longer in the checkpoint store");
        mkdirSync(dirname(file.path), { recursive: true });
        const temporary = `${file.path}.zi-rewind-${process.pid}`;
        // The restored file keeps the mode the file has now (or the tools' default for a new file).
        let mode = 0o644;
        try {
          mode = statSync(file.path).mode & 0o7777;
        } catch {
          // absent now
        }
        const fd = openSync(temporary, "w", mode);
        try {
          writeSync(fd, bytes);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        renameSync(temporary, file.path);
      } catch (error) {
        problems.push(`${file.path}: ${describe(error)}`);
      }
    }
    return problems;
  }

  /** An entry of one journal as an input for another (in-memory forks assign new ids). */
  private static input(entry: JournalEntry): never {
    const { id: _id, parentId: _parentId, timestamp: _timestamp, ...input } = entry as JournalEntry & Record<string, unknown>;
    return input as never;
  }
}
