import { constants } from "node:fs";
import { createReadStream } from "node:fs";
import { SessionCatalog } from "../journal/session-catalog.js";
import { sessionTitle } from "../journal/session-title.js";

/** Sessions per `session/list` page. */
export const SESSION_PAGE_SIZE = 50;

/**
 * The journal behind an ACP session id (`session/load`, `session/resume`) and what an ACP session
 * journaled of its own choices. Listing is Zi's `session.list` (its index), not this store. Only
 * regular files are read, opened without blocking, so a FIFO or a device there cannot hang a load.
 */
export class AcpSessionStore {
  /** The one reader of journal headers (the index beside the journals is the one session.list keeps). */
  private readonly catalog: SessionCatalog;

  constructor(sessionsDir: string) {
    this.catalog = new SessionCatalog(sessionsDir);
  }

  /** The journal file of `sessionId`, or undefined when there is none. */
  async find(sessionId: string): Promise<{ file: string; cwd: string } | undefined> {
    const found = await this.catalog.find(sessionId);
    return found === undefined ? undefined : { file: found.path, cwd: found.cwd };
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

  /** A prompt's title, as `session.list` gives it (core/journal/session-title.ts). */
  static titleOf(text: string): string | undefined {
    return sessionTitle(text) ?? undefined;
  }
}
