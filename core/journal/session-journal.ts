import { closeSync, constants, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import type * as PiAi from "@mariozechner/pi-ai";
import { FILE_LIMITS, refusalReason } from "../config/bounded-file-reader.js";
import { RpcError } from "../kernel/rpc-error.js";
import type { MessagePage, OperationOutcome, OutcomePage, ThinkingLevel, WorkPlan } from "../wire/session-types.js";
import { entryProblem } from "./journal-entry-guard.js";
import { JournalIndex } from "./journal-index.js";
import { DamagedLinesFile } from "./damaged-lines-file.js";
import { type LoadedJournal, loadJournal } from "./journal-loader.js";
import type { JournalEntry, JournalEntryInput } from "./journal-types.js";
import type { Stats } from "node:fs";
import type { JournalModel, OutcomeEntry, SessionHeaderEntry, SessionJournalOptions } from "./journal-view-types.js";
import { randomUuid } from "./random-uuid.js";

/** Session ids become file names: nothing that could leave the directory or need quoting. */
const SAFE_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const warn = (text: string): void => void process.stderr.write(`zi: ${text}\n`);

/**
 * The append-only JSONL journal of one session plus the indexes that make paging cheap.
 *
 * Each entry is one line written with one write (short writes are retried), then fdatasync'ed,
 * before `append` returns, so a crash can tear only the last line. `open` repairs such a tail.
 * One process owns a journal file at a time; nothing locks it.
 */
/** What a failed journal write's code means, for the message. */
const WRITE_FAILURES: ReadonlyMap<string, string> = new Map([
  ["ENOSPC", " (no space left on the device)"],
  ["EDQUOT", " (disk quota exceeded)"],
  ["EROFS", " (read-only file system)"],
  ["EIO", " (input/output error)"],
]);

export class SessionJournal {
  private readonly index = new JournalIndex();

  private constructor(
    readonly file: string | null,
    private fd: number | null,
    private size: number,
    private readonly fsync: boolean,
    private readonly redact: (jsonLine: string) => string = (line) => line,
  ) {}

  /** `--no-session`: the same indexes, nothing on disk. */
  static inMemory(sessionId: string, cwd: string, options: SessionJournalOptions = {}): SessionJournal {
    const journal = new SessionJournal(null, null, 0, false, options.redact);
    journal.append({ type: "session", version: 1, sessionId, cwd });
    return journal;
  }

  /** A new file `<dir>/<timestamp>_<sessionId>.jsonl` (mode 0600) whose first line is the header. */
  static create(dir: string, sessionId: string, cwd: string, options: SessionJournalOptions = {}): SessionJournal {
    if (!SAFE_SESSION_ID.test(sessionId)) throw new Error(`unsafe session id for a file name: ${sessionId}`);
    const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}_${sessionId}.jsonl`);
    let fd: number;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      fd = openSync(file, "ax", 0o600);
    } catch (error) {
      warn(`cannot create session journal ${file}: ${describe(error)}`);
      throw new RpcError("operation_failed", "the session file could not be created");
    }
    const journal = new SessionJournal(file, fd, 0, options.fsync ?? true, options.redact);
    journal.append({ type: "session", version: 1, sessionId, cwd });
    return journal;
  }

  /**
   * A new journal holding `entries` (a path of another journal, header excluded) as they were written,
   * each one's parent the entry before it, under a header naming the journal it came from. Written to
   * a temporary name, synced and renamed, so a crash leaves either no fork or the whole fork.
   */
  static fork(dir: string, sessionId: string, cwd: string, entries: readonly JournalEntry[], forkedFrom: string | null, options: SessionJournalOptions = {}): SessionJournal {
    if (!SAFE_SESSION_ID.test(sessionId)) throw new Error(`unsafe session id for a file name: ${sessionId}`);
    const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}_${sessionId}.jsonl`);
    const temporary = `${file}.tmp`;
    const redact = options.redact ?? ((line: string) => line);
    const header = { type: "session", id: randomUuid().slice(0, 8), parentId: null, timestamp: new Date().toISOString(), version: 1, sessionId, cwd, ...(forkedFrom === null ? {} : { forkedFrom }) };
    let parentId = header.id;
    const lines = [JSON.stringify(header)];
    for (const entry of entries) {
      lines.push(redact(JSON.stringify({ ...entry, parentId })));
      parentId = entry.id;
    }
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const fd = openSync(temporary, "wx", 0o600);
      try {
        const bytes = Buffer.from(`${lines.join("\n")}\n`);
        let written = 0;
        while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, file);
      const dirFd = openSync(dir, constants.O_RDONLY);
      try {
        fsyncSync(dirFd);
      } finally {
        closeSync(dirFd);
      }
    } catch (error) {
      try {
        unlinkSync(temporary);
      } catch {
        // nothing was written
      }
      warn(`cannot create session journal ${file}: ${describe(error)}`);
      throw new RpcError("operation_failed", "the forked session file could not be created");
    }
    return SessionJournal.open(file, options);
  }

  /**
   * Resumes a journal (rules in docs/journal.md). Only a regular file of at most
   * `FILE_LIMITS.maxJournalBytes` is read: anything else is refused before a byte is read. Complete
   * lines that are not valid entries are skipped, left in place and copied to `<file>.damaged`; a
   * torn last line (no LF, not JSON) is copied there too and then cut; a valid last line missing
   * its LF gets one. Each repair is reported as one line on stderr. The first line must be a
   * session header.
   */
  static open(file: string, options: SessionJournalOptions = {}): SessionJournal {
    const fd = SessionJournal.openRegular(file);
    try {
      const loaded = loadJournal(fd, FILE_LIMITS.maxJournalBytes);
      const fsync = options.fsync ?? true;
      const size = SessionJournal.repair(file, fd, loaded, fsync);
      const journal = new SessionJournal(file, fd, size, fsync, options.redact);
      if (loaded.missingNewline) journal.writeLine("\n");
      for (const entry of loaded.entries) journal.index.add(entry);
      return journal;
    } catch (error) {
      closeSync(fd);
      if (error instanceof RpcError) throw error;
      warn(`cannot resume session journal ${file}: ${describe(error)}`);
      throw new RpcError("operation_failed", `not a readable Zi session journal: ${describe(error)}`);
    }
  }

  /**
   * `stat` before `open` (opening a device can have effects of its own), `fstat` after (the path may
   * have changed in between); O_NONBLOCK so that even a FIFO swapped in between cannot block the open.
   */
  private static openRegular(file: string): number {
    let fd: number;
    try {
      const refusal = SessionJournal.refusal(statSync(file));
      if (refusal) throw new RpcError("operation_failed", `session file ${file} ${refusal}`);
      fd = openSync(file, constants.O_RDWR | constants.O_APPEND | constants.O_NONBLOCK);
    } catch (error) {
      if (error instanceof RpcError) throw error;
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      if (missing) throw new RpcError("not_found", "session file not found");
      warn(`cannot open session journal ${file}: ${describe(error)}`);
      throw new RpcError("operation_failed", "the session file could not be opened");
    }
    const refusal = SessionJournal.refusal(fstatSync(fd));
    if (refusal) {
      closeSync(fd);
      throw new RpcError("operation_failed", `session file ${file} ${refusal}`);
    }
    return fd;
  }

  private static refusal(stats: Stats): string | undefined {
    return refusalReason(stats, FILE_LIMITS.maxJournalBytes);
  }

  /**
   * Copies damaged lines aside, then cuts a torn tail, and returns the journal's size. If the copy
   * cannot be written the torn tail is not cut but terminated, so no byte of it is lost: it becomes
   * a damaged complete line, skipped on every resume.
   */
  private static repair(file: string, fd: number, loaded: LoadedJournal, fsync: boolean): number {
    const size = fstatSync(fd).size;
    const aside = [...loaded.damaged, ...(loaded.torn ? [loaded.torn] : [])];
    if (aside.length === 0) {
      if (fsync) fdatasyncSync(fd);
      return size;
    }
    const damagedFile = new DamagedLinesFile(file);
    let copied = true;
    try {
      damagedFile.record(aside);
    } catch (error) {
      copied = false;
      warn(`session journal ${file}: cannot copy damaged lines to ${damagedFile.path}: ${describe(error)}`);
    }
    if (loaded.damaged.length > 0) {
      const first = loaded.damaged[0]!;
      const where = copied ? `copies are in ${damagedFile.path}` : "no copy was made";
      warn(`session journal ${file}: skipped ${loaded.damaged.length} malformed line(s); first at line ${first.lineNo} (${first.problem}); they stay in the journal, ${where}`);
    }
    const torn = loaded.torn;
    if (!torn) {
      if (fsync) fdatasyncSync(fd);
      return size;
    }
    if (!copied) {
      warn(`session journal ${file}: kept a torn last line at line ${torn.lineNo} (${torn.problem}) and ended it with LF; it is skipped`);
      writeSync(fd, "\n");
      if (fsync) fdatasyncSync(fd);
      return size + 1;
    }
    ftruncateSync(fd, torn.offset);
    if (fsync) fdatasyncSync(fd);
    warn(`session journal ${file}: cut a torn last line at line ${torn.lineNo} (${torn.problem}); its bytes are in ${damagedFile.path}`);
    return torn.offset;
  }

  /** The projection carried by `operation_outcome` events and `session.get_outcomes` items alike. */
  static toOutcome(entry: OutcomeEntry): OperationOutcome {
    return JournalIndex.toOutcome(entry);
  }

  get sessionId(): string {
    return this.header.sessionId;
  }

  get cwd(): string {
    return this.header.cwd;
  }

  get lastEntryId(): string | null {
    return this.index.lastEntryId;
  }

  /** The current leaf (the last entry): the next entry's parent. */
  get leafId(): string {
    return this.index.leafId ?? "";
  }

  /** The journal this one was forked from (its header's `forkedFrom`), or null. */
  get forkedFrom(): string | null {
    const from = (this.header as { forkedFrom?: unknown }).forkedFrom;
    return typeof from === "string" ? from : null;
  }

  /** The entries from the root to the leaf. */
  pathEntries(): JournalEntry[] {
    return this.index.pathEntries();
  }

  /** The entries from the root to `id` inclusive; undefined for an unknown id. */
  pathTo(id: string): JournalEntry[] | undefined {
    return this.index.pathTo(id);
  }

  onPath(id: string): boolean {
    return this.index.onPath(id);
  }

  /** The entry at file position `seq` (0 is the header). */
  entryAt(seq: number): JournalEntry | undefined {
    return this.index.entryAt(seq);
  }

  get entryCount(): number {
    return this.index.entryCount;
  }

  /** Items of the `session.get_messages` transcript (hidden custom messages excluded). */
  get messageCount(): number {
    return this.index.messageCount;
  }

  get outcomeCount(): number {
    return this.index.outcomeCount;
  }

  /** The latest `work_plan`, or `{ revision: 0, steps: [] }`. */
  get workPlan(): WorkPlan {
    return this.index.workPlan;
  }

  /** The latest `model_change`, or null if the session never selected one. */
  get model(): JournalModel | null {
    return this.index.latestModel;
  }

  /** The latest `thinking_level_change`, or null. */
  get thinkingLevel(): ThinkingLevel | null {
    return this.index.thinkingLevel;
  }

  /**
   * Writes one entry (assigning id, parentId = the leaf, or `branchFrom` for a branch entry, ISO
   * timestamp) and indexes it.
   * The returned entry is the parsed form of the written line, i.e. exactly what a resume reads;
   * treat it as read-only. On a write failure nothing is indexed and the partial line is cut off.
   */
  append(input: JournalEntryInput, branchFrom?: string): JournalEntry {
    if (this.fd === null && this.file !== null) throw new RpcError("operation_failed", "the session journal is closed");
    if ((input.type === "session") !== (this.index.entryCount === 0)) {
      throw new Error("the session header is the journal's first entry and only that");
    }
    let id: string;
    do id = randomUuid().slice(0, 8);
    while (this.index.has(id));
    // Only a branch entry names its parent (the entry it moves the leaf to); every other one extends the leaf.
    if ((input.type === "branch") !== (branchFrom !== undefined)) throw new Error("a branch entry, and only one, names its parent");
    if (branchFrom !== undefined && !this.index.has(branchFrom)) throw new RpcError("not_found", `no entry ${branchFrom} in this session`);
    const base = { id, parentId: branchFrom ?? this.index.lastEntryId, timestamp: new Date().toISOString() };
    // `base` last too: a JS caller's stray id/parentId/timestamp must not win; `type` first reads well.
    // Scrubbed before it is parsed back: the file, the index and every event built from it agree.
    const line = this.redact(JSON.stringify(Object.assign({ type: input.type, ...base }, input, base)));
    const entry: unknown = JSON.parse(line);
    const problem = entryProblem(entry);
    if (problem) throw new Error(`refusing to journal a ${input.type} entry: ${problem}`);
    this.writeLine(`${line}\n`);
    this.index.add(entry as JournalEntry);
    return entry as JournalEntry;
  }

  entries(): IterableIterator<JournalEntry> {
    return this.index.entries();
  }

  getEntry(id: string): JournalEntry | undefined {
    return this.index.get(id);
  }

  /** See JournalIndex.getMessagePage: bounded by `limit` items and by `maxBytes` of encoded JSON. */
  getMessagePage(start: number, limit: number, maxBytes: number): MessagePage {
    return this.index.getMessagePage(start, limit, maxBytes);
  }

  getOutcomePage(start: number, limit: number): OutcomePage {
    return this.index.getOutcomePage(start, limit);
  }

  /** The pi-ai messages the model should see; see JournalIndex.buildContextMessages. */
  buildContextMessages(): PiAi.Message[] {
    return this.index.buildContextMessages();
  }

  toOutcome(entry: OutcomeEntry): OperationOutcome {
    return JournalIndex.toOutcome(entry);
  }

  /** Releases the file; appends then fail. Indexes stay readable. Idempotent. */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }

  private get header(): SessionHeaderEntry {
    return this.index.first as SessionHeaderEntry;
  }

  private writeLine(line: string): void {
    const fd = this.fd;
    if (fd === null) return;
    const bytes = Buffer.from(line, "utf8");
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      if (this.fsync) fdatasyncSync(fd);
    } catch (error) {
      // Cut a partial (or unsynced) line so the next append starts on a clean line.
      if (written > 0) {
        try {
          ftruncateSync(fd, this.size);
        } catch {
          // The next `open` repairs the tail instead.
        }
      }
      warn(`session journal ${this.file} write failed: ${describe(error)}`);
      // The cause's code (ENOSPC: the disk is full; EDQUOT, EIO, EROFS) is what the user can act on.
      const code = (error as NodeJS.ErrnoException).code;
      const cause = typeof code === "string" && /^E[A-Z]+$/.test(code) ? `: ${code}${WRITE_FAILURES.get(code) ?? ""}` : "";
      throw new RpcError("operation_failed", `the session journal ${this.file} could not be written${cause}`);
    }
    this.size += bytes.length;
  }
}
