import { homedir } from "node:os";
import { lstatSync, readFileSync } from "node:fs";
import { resolve, sep } from "node:path";
import { CheckpointStore, contentHash, MAX_CHECKPOINT_FILE_BYTES } from "../journal/checkpoint-store.js";
import type { JournalEntryInput } from "../journal/journal-types.js";

/** The tools whose file changes a rewind can undo: they name the one file they change in `path`. */
const FILE_TOOLS = new Set(["write", "edit"]);

/** A file's state: its content hash, null when absent, undefined when it cannot be checkpointed. */
type FileState = string | null | undefined;

export interface PendingCheckpoint {
  toolCallId: string;
  toolName: string;
  path: string;
  before: FileState;
}

/**
 * The hook around write and edit (in the tool runner, not in the tools): before one runs, the file's
 * content (or its absence) goes into the checkpoint store; after it, a `file_checkpoint` entry records
 * the hashes before and after, which is what `session.rewind` restores and checks. What other tools
 * (bash) change is not seen here.
 */
export class FileCheckpoints {
  constructor(
    private readonly store: CheckpointStore,
    private readonly cwd: string,
  ) {}

  before(toolCallId: string, toolName: string, args: Record<string, unknown>): PendingCheckpoint | undefined {
    if (!FILE_TOOLS.has(toolName) || typeof args.path !== "string" || args.path === "") return undefined;
    const path = FileCheckpoints.resolve(this.cwd, args.path);
    if (path.split(sep).includes(".git")) return undefined; // never ours to restore
    return { toolCallId, toolName, path, before: this.capture(path, true) };
  }

  /** The entry to journal once the tool ran, or undefined when the file did not change (or cannot be covered). */
  after(pending: PendingCheckpoint): JournalEntryInput | undefined {
    if (pending.before === undefined) return undefined;
    const after = this.capture(pending.path, false);
    if (after === undefined || after === pending.before) return undefined;
    return { type: "file_checkpoint", toolCallId: pending.toolCallId, toolName: pending.toolName, path: pending.path, before: pending.before, after };
  }

  /** The file's hash now (kept in the store when `keep`), null when absent, undefined when not a coverable file. */
  capture(path: string, keep: boolean): FileState {
    return FileCheckpoints.state(path, keep ? this.store : undefined);
  }

  static state(path: string, store?: CheckpointStore): FileState {
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      return null;
    }
    if (!stats.isFile() || stats.size > MAX_CHECKPOINT_FILE_BYTES) return undefined;
    try {
      const bytes = readFileSync(path);
      return store ? store.put(bytes) : contentHash(bytes);
    } catch {
      return undefined;
    }
  }

  /** The coding tools' rule (plugins/coding-tools/tool-paths.ts), which core may not import: cwd-relative, `~` is home. */
  static resolve(cwd: string, path: string): string {
    if (path === "~") return homedir();
    if (path.startsWith("~/")) return resolve(homedir(), path.slice(2));
    return resolve(cwd, path);
  }
}
