import { constants } from "node:fs";
import { createReadStream } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { sessionTitle } from "../journal/session-title.js";

/** Sessions per `session/list` page. */
export const SESSION_PAGE_SIZE = 50;
/** Bytes read from the start of a journal to find its header. */
const HEAD_BYTES = 64 * 1024;
const JOURNAL_NAME = /^[^_]+_([A-Za-z0-9][A-Za-z0-9._-]{0,127})\.jsonl$/;

interface JournalHead {
  sessionId: string;
  cwd: string;
  file: string;
  mtimeMs: number;
}

/**
 * The journal behind an ACP session id (`session/load`, `session/resume`) and what an ACP session
 * journaled of its own choices. Listing is Zi's `session.list` (its index), not this store. Only
 * regular files are read, opened without blocking, so a FIFO or a device there cannot hang a load.
 */
export class AcpSessionStore {
  constructor(private readonly sessionsDir: string) {}

  /** The journal file of `sessionId`, or undefined when there is none. */
  async find(sessionId: string): Promise<{ file: string; cwd: string } | undefined> {
    const names = await this.names();
    const name = names.find((candidate) => JOURNAL_NAME.exec(candidate)?.[1] === sessionId);
    if (name === undefined) return undefined;
    const head = await this.head(join(this.sessionsDir, name));
    return head?.sessionId === sessionId ? { file: head.file, cwd: head.cwd } : undefined;
  }

  /**
   * The data of the last `custom` entry of `customType` in the journal `file` (what an ACP session
   * journaled of its own choices), or undefined. Lines are split on LF bytes (readline would also
   * split inside a string holding U+2028), and only lines naming the type are parsed.
   */
  static async lastCustomEntry(file: string, customType: string): Promise<unknown> {
    const marker = Buffer.from(`"customType":${JSON.stringify(customType)}`);
    let found: unknown;
    let rest = Buffer.alloc(0);
    const consider = (line: Buffer) => {
      if (!line.includes(marker)) return;
      try {
        const entry = JSON.parse(line.toString("utf8")) as { type?: unknown; customType?: unknown; data?: unknown };
        if (entry.type === "custom" && entry.customType === customType) found = entry.data;
      } catch {
        // a torn last line: the entry before it stands
      }
    };
    try {
      for await (const chunk of createReadStream(file, { flags: constants.O_RDONLY | constants.O_NONBLOCK } as unknown as { flags: string })) {
        let buffer = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
        for (let newline = buffer.indexOf(10); newline >= 0; newline = buffer.indexOf(10)) {
          consider(buffer.subarray(0, newline));
          buffer = buffer.subarray(newline + 1);
        }
        rest = Buffer.from(buffer);
      }
      consider(rest);
    } catch {
      return found;
    }
    return found;
  }

  private async names(): Promise<string[]> {
    try {
      return (await readdir(this.sessionsDir)).filter((name) => JOURNAL_NAME.test(name));
    } catch {
      return [];
    }
  }

  private async head(file: string): Promise<JournalHead | undefined> {
    try {
      const stats = await stat(file);
      if (!stats.isFile()) return undefined;
      const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        const buffer = Buffer.alloc(Math.min(HEAD_BYTES, stats.size));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        const lines = buffer.subarray(0, bytesRead).toString("utf8").split("\n");
        const header = JSON.parse(lines[0] ?? "") as { type?: string; sessionId?: unknown; cwd?: unknown };
        if (header.type !== "session" || typeof header.sessionId !== "string" || typeof header.cwd !== "string") return undefined;
        return { sessionId: header.sessionId, cwd: header.cwd, file, mtimeMs: stats.mtimeMs };
      } finally {
        await handle.close();
      }
    } catch {
      return undefined;
    }
  }

  /** A prompt's title, as `session.list` gives it (core/journal/session-title.ts). */
  static titleOf(text: string): string | undefined {
    return sessionTitle(text) ?? undefined;
  }
}
