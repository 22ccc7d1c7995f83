import { constants, statSync, type Stats } from "node:fs";
import { open, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { SessionListItem, SessionListPage } from "../wire/session-tree-types.js";
import { sessionTitle } from "./session-title.js";

/** `<timestamp>_<sessionId>.jsonl`, as SessionJournal.create names journals. */
const JOURNAL_NAME = /^[^_]+_([A-Za-z0-9][A-Za-z0-9._-]{0,127})\.jsonl$/;
const INDEX_VERSION = 1;
const CHUNK_BYTES = 256 * 1024;
/** Files stat'ed or read at once: far below any fd limit (≥ 64) a process may have. */
const CONCURRENCY = 8;
const LF = 0x0a;
const MESSAGE_PREFIX = Buffer.from('{"type":"message",');

/** Bytes read from the start of a journal to find its header line (SessionJournal writes it first, short). */
const HEADER_BYTES = 64 * 1024;

/** Where a session's journal is, and the working directory its session started in. */
export interface JournalLocation {
  path: string;
  cwd: string;
}

interface JournalHeader {
  sessionId: string;
  cwd: string;
  timestamp: string | null;
}

/** What the index keeps of one journal: enough to list it, and how far it was read. */
interface IndexRecord {
  name: string;
  size: number;
  mtimeMs: number;
  /** Bytes read so far (up to the last complete line): an append-only journal is read on from here. */
  scanned: number;
  id: string | null;
  cwd: string | null;
  created: string | null;
  title: string | null;
  messageCount: number;
}

interface IndexFile {
  version: number;
  records: IndexRecord[];
}

/**
 * The one place that lists sessions: the journals in `ZI_HOME/sessions`, kept in a small index file
 * beside them (`.index.json`, 0600) so that listing thousands costs a directory read and a stat per
 * file. Journals only grow (a resume may cut a torn tail), so a journal that grew is read on from
 * where the index stopped, and only one that shrank or is new is read from its start. Only regular
 * files are read, opened without blocking; at most CONCURRENCY files are open at once.
 */
export class SessionCatalog {
  private refreshing: Promise<IndexRecord[]> | undefined;

  constructor(
    private readonly dir: string,
    private readonly indexFile: string = join(dir, ".index.json"),
  ) {}

  /** Newest modified first; `cwd` undefined lists every journal. */
  async list(cwd: string | undefined, start: number, limit: number): Promise<SessionListPage> {
    const wanted = cwd === undefined ? undefined : resolve(cwd);
    const items = (await this.items()).filter((item) => wanted === undefined || item.cwd === wanted);
    const sessions = items.slice(start, start + limit);
    const next = start + sessions.length;
    return { start, total: items.length, nextStart: next < items.length ? next : null, sessions };
  }

  /**
   * The journal of session `id` and the cwd its header names, or undefined. A journal named for the id
   * is read no further than its header, so opening one session (session.switch, ACP's session/load)
   * does not index every journal; one not named for its session (copied, renamed by hand) is known by
   * its header only, through the index.
   */
  async find(id: string): Promise<JournalLocation | undefined> {
    const names = await this.names();
    for (const name of names) {
      if (JOURNAL_NAME.exec(name)?.[1] !== id) continue;
      const path = join(this.dir, name);
      const header = await SessionCatalog.readHeader(path);
      if (header?.sessionId === id) return { path, cwd: header.cwd };
    }
    // The index is brought up to date from the same listing: the directory is read once.
    const item = (await this.items(names)).find((candidate) => candidate.id === id);
    return item === undefined ? undefined : { path: item.path, cwd: item.cwd };
  }

  /** `names`: the journals listed already, when the caller has just read the directory. */
  private async items(names?: string[]): Promise<SessionListItem[]> {
    const records = await this.refresh(names);
    const items: SessionListItem[] = [];
    for (const record of records) {
      if (record.id === null || record.cwd === null) continue;
      items.push({
        id: record.id,
        path: join(this.dir, record.name),
        cwd: record.cwd,
        title: record.title,
        created: record.created ?? new Date(record.mtimeMs).toISOString(),
        modified: new Date(record.mtimeMs).toISOString(),
        messageCount: record.messageCount,
      });
    }
    return items.sort((a, b) => (a.modified < b.modified ? 1 : a.modified > b.modified ? -1 : a.id.localeCompare(b.id)));
  }

  /** One refresh at a time: concurrent listings share it (and its reading of the directory). */
  private refresh(names?: string[]): Promise<IndexRecord[]> {
    this.refreshing ??= this.doRefresh(names).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async doRefresh(listed: string[] | undefined): Promise<IndexRecord[]> {
    const [names, known] = await Promise.all([listed ?? this.names(), this.readIndex()]);
    let changed = names.length !== known.size;
    // A stat holds no file descriptor and costs microseconds: done in one synchronous pass (5,000
    // files in about 30 ms), only the files that changed are read, CONCURRENCY at a time.
    const records: (IndexRecord | undefined)[] = [];
    const stale: { index: number; stats: Stats | undefined }[] = [];
    for (const [index, name] of names.entries()) {
      const stats = SessionCatalog.statOf(join(this.dir, name));
      const previous = known.get(name);
      const unchanged = previous !== undefined && stats?.isFile() === true && previous.size === stats.size && previous.mtimeMs === stats.mtimeMs;
      records.push(unchanged ? previous : undefined);
      if (!unchanged) stale.push({ index, stats });
    }
    if (stale.length > 0) changed = true;
    await pool(stale, async ({ index, stats }) => {
      records[index] = await this.update(names[index]!, stats, known.get(names[index]!));
    });
    const kept = records.filter((record): record is IndexRecord => record !== undefined);
    if (changed) await this.writeIndex(kept);
    return kept;
  }

  private async names(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((name) => JOURNAL_NAME.test(name));
    } catch {
      return [];
    }
  }

  private async readIndex(): Promise<Map<string, IndexRecord>> {
    try {
      const parsed = JSON.parse(await readFile(this.indexFile, { encoding: "utf8", flag: constants.O_RDONLY | constants.O_NONBLOCK })) as IndexFile;
      if (parsed.version !== INDEX_VERSION || !Array.isArray(parsed.records)) return new Map();
      return new Map(parsed.records.map((record) => [record.name, record]));
    } catch {
      return new Map(); // none yet, or unreadable: rebuilt from the journals
    }
  }

  /** Atomically (a temporary file renamed over it): a concurrent Zi reads the old or the new index. */
  private async writeIndex(records: IndexRecord[]): Promise<void> {
    const temporary = `${this.indexFile}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify({ version: INDEX_VERSION, records } satisfies IndexFile), { mode: 0o600 });
      await rename(temporary, this.indexFile);
    } catch (error) {
      process.stderr.write(`zi: cannot write the session index ${this.indexFile}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }

  /** The record of `name` now: `previous` itself when the file did not change, undefined when it is no journal. */
  private static statOf(file: string): Stats | undefined {
    try {
      return statSync(file);
    } catch {
      return undefined;
    }
  }

  private async update(name: string, stats: Stats | undefined, previous: IndexRecord | undefined): Promise<IndexRecord | undefined> {
    const file = join(this.dir, name);
    if (!stats?.isFile()) return undefined;
    const fresh: IndexRecord = { name, size: 0, mtimeMs: 0, scanned: 0, id: null, cwd: null, created: null, title: null, messageCount: 0 };
    const base = previous && stats.size >= previous.scanned && previous.id !== null ? { ...previous } : fresh;
    base.size = stats.size;
    base.mtimeMs = stats.mtimeMs;
    try {
      await SessionCatalog.scan(file, base, stats.size);
    } catch {
      return base.id === null ? undefined : base;
    }
    return base.id === null ? undefined : base;
  }

  /** Reads complete lines from `record.scanned` to `size`, counting messages and finding the header and title. */
  private static async scan(file: string, record: IndexRecord, size: number): Promise<void> {
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      let position = record.scanned;
      let carry: Buffer | null = null;
      while (position < size) {
        const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
        if (bytesRead === 0) break;
        const data: Buffer = carry ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
        const dataStart = position - (carry?.length ?? 0);
        let from = 0;
        for (let lf = data.indexOf(LF); lf !== -1; lf = data.indexOf(LF, from)) {
          SessionCatalog.visit(record, data.subarray(from, lf), dataStart + from === 0);
          from = lf + 1;
          record.scanned = dataStart + from;
        }
        carry = from < data.length ? Buffer.from(data.subarray(from)) : null;
        position += bytesRead;
        // The first line must be a header: a file that starts otherwise is no journal, read no further.
        if (record.id === null && record.scanned > 0) return;
      }
    } finally {
      await handle.close();
    }
  }

  /** The header of the journal `file` (its first line), or undefined when it is no regular file or no journal. */
  private static async readHeader(file: string): Promise<JournalHeader | undefined> {
    if (!SessionCatalog.statOf(file)?.isFile()) return undefined;
    try {
      const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        const buffer = Buffer.allocUnsafe(HEADER_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
        const lf = buffer.subarray(0, bytesRead).indexOf(LF);
        return SessionCatalog.header(buffer.subarray(0, lf === -1 ? bytesRead : lf));
      } finally {
        await handle.close();
      }
    } catch {
      return undefined;
    }
  }

  /** The one reading of a journal's first line: `{"type":"session","sessionId",…,"cwd",…}`. */
  private static header(line: Buffer): JournalHeader | undefined {
    try {
      const header = JSON.parse(line.toString("utf8")) as { type?: unknown; sessionId?: unknown; cwd?: unknown; timestamp?: unknown };
      if (header.type !== "session" || typeof header.sessionId !== "string" || typeof header.cwd !== "string") return undefined;
      return { sessionId: header.sessionId, cwd: header.cwd, timestamp: typeof header.timestamp === "string" ? header.timestamp : null };
    } catch {
      return undefined; // not a journal
    }
  }

  private static visit(record: IndexRecord, line: Buffer, first: boolean): void {
    if (first) {
      const header = SessionCatalog.header(line);
      if (header === undefined) return;
      record.id = header.sessionId;
      record.cwd = header.cwd;
      record.created = header.timestamp;
      return;
    }
    // Zi writes `type` first, so a message entry is known by its first bytes, without parsing the line.
    if (line.length < MESSAGE_PREFIX.length || line.compare(MESSAGE_PREFIX, 0, MESSAGE_PREFIX.length, 0, MESSAGE_PREFIX.length) !== 0) return;
    record.messageCount++;
    if (record.title !== null) return;
    try {
      const entry = JSON.parse(line.toString("utf8")) as { message?: { role?: unknown; content?: unknown } };
      if (entry.message?.role === "user") record.title = sessionTitle(entry.message.content);
    } catch {
      record.messageCount--; // a damaged line: not a message
    }
  }
}

/** `work` over `items`, at most CONCURRENCY at a time, results in order. */
async function pool<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}
