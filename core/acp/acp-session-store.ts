import { constants } from "node:fs";
import { createReadStream } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import type * as acp from "@agentclientprotocol/sdk";

/** Sessions per `session/list` page. */
export const SESSION_PAGE_SIZE = 50;
/** Bytes read from the start of a journal to find its header and first prompt (the title). */
const HEAD_BYTES = 64 * 1024;
const MAX_TITLE_CHARS = 80;
const JOURNAL_NAME = /^[^_]+_([A-Za-z0-9][A-Za-z0-9._-]{0,127})\.jsonl$/;

interface JournalHead {
  sessionId: string;
  cwd: string;
  title: string | undefined;
  file: string;
  mtimeMs: number;
}

/**
 * The journals under `ZI_HOME/sessions` as ACP sessions: `session/list` (newest first, filtered by
 * cwd, paged by an opaque cursor) and the file behind a session id for `session/load`. Only the head
 * of each file is read (header and first user message), never a whole journal, and only regular
 * files, opened without blocking, so a FIFO or a device there cannot hang the listing.
 */
export class AcpSessionStore {
  constructor(private readonly sessionsDir: string) {}

  async list(cwd: string | undefined, cursor: string | undefined): Promise<acp.ListSessionsResponse> {
    const offset = cursor === undefined ? 0 : Number(Buffer.from(cursor, "base64url").toString());
    if (!Number.isInteger(offset) || offset < 0) throw RequestError.invalidParams(undefined, "invalid cursor");
    const wanted = cwd === undefined ? undefined : resolve(cwd);
    const heads = (await this.heads()).filter((head) => wanted === undefined || head.cwd === wanted);
    heads.sort((a, b) => b.mtimeMs - a.mtimeMs || a.sessionId.localeCompare(b.sessionId));
    const page = heads.slice(offset, offset + SESSION_PAGE_SIZE);
    const sessions = page.map((head) => ({
      sessionId: head.sessionId,
      cwd: head.cwd,
      updatedAt: new Date(head.mtimeMs).toISOString(),
      ...(head.title === undefined ? {} : { title: head.title }),
    }));
    const next = offset + SESSION_PAGE_SIZE;
    return next < heads.length ? { sessions, nextCursor: Buffer.from(String(next)).toString("base64url") } : { sessions };
  }

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

  private async heads(): Promise<JournalHead[]> {
    const heads = await Promise.all((await this.names()).map((name) => this.head(join(this.sessionsDir, name))));
    return heads.filter((head): head is JournalHead => head !== undefined);
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
        return { sessionId: header.sessionId, cwd: header.cwd, title: AcpSessionStore.title(lines.slice(1)), file, mtimeMs: stats.mtimeMs };
      } finally {
        await handle.close();
      }
    } catch {
      return undefined;
    }
  }

  /** The first line of the first user message, as the session's title. */
  private static title(lines: string[]): string | undefined {
    for (const line of lines) {
      if (!line.includes('"user"')) continue;
      try {
        const entry = JSON.parse(line) as { type?: string; message?: { role?: string; content?: unknown } };
        if (entry.type !== "message" || entry.message?.role !== "user") continue;
        const content = entry.message.content;
        const text =
          typeof content === "string"
            ? content
            : Array.isArray(content)
              ? (content as { type?: string; text?: unknown }[]).map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : "")).join(" ")
              : "";
        return AcpSessionStore.titleOf(text);
      } catch {
        continue; // a torn line within the head: look further
      }
    }
    return undefined;
  }

  static titleOf(text: string): string | undefined {
    const line = text.trim().split("\n")[0]?.trim() ?? "";
    if (line === "") return undefined;
    return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1)}…` : line;
  }
}
