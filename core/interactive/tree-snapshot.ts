import type { TreeEntryItem, TreePage } from "../wire/session-tree-types.js";
import { SESSION_TREE_LIMITS } from "../wire/session-tree-types.js";
import type { SessionClient } from "./session-client.js";

/**
 * The session's tree as `session.get_tree` pages it, read whole: every entry in file order, the
 * path from the root to the leaf (what the model sees), and how deep a branch each entry sits.
 */
export class TreeSnapshot {
  private readonly byId = new Map<string, TreeEntryItem>();
  private readonly onPath = new Set<string>();
  private readonly depths = new Map<string, number>();

  private constructor(
    readonly entries: TreeEntryItem[],
    readonly leafId: string,
  ) {
    for (const entry of entries) this.byId.set(entry.id, entry);
    for (let entry = this.byId.get(leafId); entry && !this.onPath.has(entry.id); entry = entry.parentId === null ? undefined : this.byId.get(entry.parentId)) this.onPath.add(entry.id);
    // A branch point (an entry with more than one child) indents what follows it, as pi's /tree does.
    const children = new Map<string, number>();
    for (const entry of entries) if (entry.parentId !== null) children.set(entry.parentId, (children.get(entry.parentId) ?? 0) + 1);
    for (const entry of entries) {
      const parent = entry.parentId === null ? undefined : entry.parentId;
      const base = parent === undefined ? 0 : (this.depths.get(parent) ?? 0);
      this.depths.set(entry.id, base + (parent !== undefined && (children.get(parent) ?? 0) > 1 ? 1 : 0));
    }
  }

  static async load(client: SessionClient): Promise<TreeSnapshot> {
    const entries: TreeEntryItem[] = [];
    let leafId = "";
    for (let start: number | null = 0; start !== null; ) {
      const page: TreePage = await client.call("session.get_tree", { start, limit: SESSION_TREE_LIMITS.maxTreePageItems });
      entries.push(...page.entries);
      leafId = page.leafId;
      start = page.nextStart;
    }
    return new TreeSnapshot(entries, leafId);
  }

  /** The conversation's messages (user and assistant), in file order; `path` keeps only those the model sees. */
  messages(path = false): TreeEntryItem[] {
    return this.entries.filter((entry) => entry.type === "message" && (entry.role === "user" || entry.role === "assistant") && (!path || this.onPath.has(entry.id)));
  }

  isOnPath(id: string): boolean {
    return this.onPath.has(id);
  }

  depth(id: string): number {
    return this.depths.get(id) ?? 0;
  }

  get(id: string): TreeEntryItem | undefined {
    return this.byId.get(id);
  }
}
