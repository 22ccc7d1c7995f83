import { readFile, stat } from "node:fs/promises";
import type * as acp from "@agentclientprotocol/sdk";

/** Files larger than this are not diffed whole; the diff then falls back to the call's arguments. */
export const MAX_DIFF_FILE_BYTES = 1024 * 1024;

type Snapshot = { path: string; text: string | null } | { path: string; unreadable: true };

/**
 * The content of the file a `write` or `edit` call changes, read just before the tool runs (the
 * session waits for its `tool_execution_start` listener) and again after it ended, so the editor gets
 * the whole file's diff whatever the tool's arguments looked like.
 */
export class AcpFileSnapshots {
  private readonly before = new Map<string, Snapshot>();

  async capture(toolCallId: string, path: string): Promise<void> {
    const read = await AcpFileSnapshots.read(path);
    this.before.set(toolCallId, read === undefined ? { path, unreadable: true } : { path, text: read });
  }

  /** The diff of a successful call, or undefined when either side could not be read as text. */
  async diff(toolCallId: string): Promise<acp.ToolCallContent | undefined> {
    const snapshot = this.before.get(toolCallId);
    this.before.delete(toolCallId);
    if (snapshot === undefined || "unreadable" in snapshot) return undefined;
    const after = await AcpFileSnapshots.read(snapshot.path);
    if (after === undefined || after === null) return undefined;
    return { type: "diff", path: snapshot.path, oldText: snapshot.text, newText: after };
  }

  forget(toolCallId: string): void {
    this.before.delete(toolCallId);
  }

  /** The file's text; null when it does not exist; undefined when it is not a regular file, too large, or binary. */
  private static async read(path: string): Promise<string | null | undefined> {
    try {
      const stats = await stat(path);
      if (!stats.isFile() || stats.size > MAX_DIFF_FILE_BYTES) return undefined;
      const bytes = await readFile(path);
      if (bytes.includes(0)) return undefined;
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
    }
  }
}
