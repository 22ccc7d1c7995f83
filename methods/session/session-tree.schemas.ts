import { arrayOf, closed, count, literal, nullable, str, SESSION_TREE_LIMITS } from "../../core/family/family-api.js";

/** The result shapes the session-tree methods share (one definition each; core/wire/session-tree-types.ts types them). */
export const SESSION_SWITCH = closed({ sessionId: str, path: nullable(str), leafId: str, messageCount: count });

export const LEAF_MOVE = closed({ leafId: str, messageCount: count });

export const SESSION_LIST_ITEM = closed({ id: str, path: str, cwd: str, title: nullable(str), created: str, modified: str, messageCount: count });

export const TREE_ENTRY = closed({ id: str, parentId: nullable(str), type: str, role: nullable(str), label: str, timestamp: str });

export const TREE_PAGE = closed({
  start: count,
  total: count,
  nextStart: nullable(count),
  leafId: str,
  entries: arrayOf(TREE_ENTRY, { maxItems: SESSION_TREE_LIMITS.maxTreePageItems }),
});

export const REWIND_RESULT = closed({
  leafId: str,
  messageCount: count,
  files: arrayOf(closed({ path: str, action: literal("restored", "deleted", "unchanged", "conflict"), reason: str }, ["reason"])),
  notCovered: str,
});

export const EXPORT_RESULT = closed({ format: literal("html", "jsonl"), path: str, bytes: count });
