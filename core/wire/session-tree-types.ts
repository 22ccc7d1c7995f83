/**
 * The shapes of the session-tree methods (`session.list`, `session.get_tree`, `session.navigate`,
 * `session.fork`, `session.new`, `session.switch`, `session.rewind`, `session.export`): what the
 * SESSIONS port takes and gives. Plain JSON only. docs/sessions.md says what each field means.
 */

/** One journal in `session.list`. `title` is the first line of the first prompt, null before one. */
export interface SessionListItem {
  id: string;
  path: string;
  cwd: string;
  title: string | null;
  /** ISO times: the header's timestamp, and the file's last modification. */
  created: string;
  modified: string;
  /** The journal's message entries (every branch counted). */
  messageCount: number;
}

export type SessionListScope = "cwd" | "all";

export interface SessionListPage {
  start: number;
  total: number;
  nextStart: number | null;
  sessions: SessionListItem[];
}

/** One journal entry in `session.get_tree`, in file order. */
export interface TreeEntryItem {
  id: string;
  parentId: string | null;
  /** The journal entry's `type` (`message`, `branch`, `model_change`, …). */
  type: string;
  /** A message's role (`user`, `assistant`, `toolResult`, `custom`), otherwise null. */
  role: string | null;
  /** At most 80 characters: a message's first line, a tool call's name, a setting's value. */
  label: string;
  timestamp: string;
}

export interface TreePage {
  start: number;
  total: number;
  nextStart: number | null;
  /** The current leaf: the next entry's parent. */
  leafId: string;
  entries: TreeEntryItem[];
}

/** After `session.navigate` and the conversation half of `session.rewind`. */
export interface LeafMove {
  leafId: string;
  /** `session.get_messages`' total on the new path. */
  messageCount: number;
}

/** After `session.new`, `session.fork` and `session.switch`: the connection's session now. */
export interface SessionSwitch {
  sessionId: string;
  /** The journal file; null under `--no-session`. */
  path: string | null;
  leafId: string;
  messageCount: number;
}

export type RewindRestore = "conversation" | "files" | "both";

/** What a rewind did (or, refused, would have done) to one file Zi's tools changed. */
export interface RewindFile {
  path: string;
  action: "restored" | "deleted" | "unchanged" | "conflict";
  /** With `conflict`: why the file was not touched. */
  reason?: string;
}

export interface RewindResult {
  /** The leaf after the rewind (unchanged when only files were restored). */
  leafId: string;
  messageCount: number;
  files: RewindFile[];
  /** Always present: what a rewind cannot restore. */
  notCovered: string;
}

export type ExportFormat = "html" | "jsonl";

export interface ExportResult {
  format: ExportFormat;
  path: string;
  bytes: number;
}

/** Bounds of the session-tree methods' pages and texts. */
export const SESSION_TREE_LIMITS = Object.freeze({
  maxSessionPageItems: 100,
  maxTreePageItems: 500,
  maxEntryIdBytes: 64,
  maxBranchSummaryBytes: 64 * 1024,
  maxPathBytes: 4096,
});
