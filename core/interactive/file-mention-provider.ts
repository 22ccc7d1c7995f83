import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions } from "@mariozechner/pi-tui";

const MENTION = /(?:^|\s)@([^\s@]*)$/;
const MAX_ITEMS = 20;

/**
 * `@path` completion from the directory the typed path names (pi-tui's own `@` search needs the `fd`
 * program, which Zi does not require); everything else (slash commands, Tab paths) goes to pi-tui's.
 */
export class FileMentionProvider implements AutocompleteProvider {
  constructor(
    private readonly inner: AutocompleteProvider,
    private readonly cwd: string,
  ) {}

  async getSuggestions(lines: string[], cursorLine: number, cursorCol: number, options: { signal: AbortSignal; force?: boolean }): Promise<AutocompleteSuggestions | null> {
    const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
    const mention = MENTION.exec(before);
    if (!mention) return this.inner.getSuggestions(lines, cursorLine, cursorCol, options);
    const typed = mention[1];
    const dir = typed.endsWith("/") ? typed : dirname(typed) === "." && !typed.startsWith("./") ? "" : `${dirname(typed)}/`;
    const stem = typed.slice(dir.length);
    let entries: { name: string; isDirectory(): boolean }[];
    try {
      entries = await readdir(join(this.cwd, dir || "."), { withFileTypes: true });
    } catch {
      return null;
    }
    const items: AutocompleteItem[] = entries
      .filter((entry) => entry.name.startsWith(stem) && (stem.startsWith(".") || !entry.name.startsWith(".")))
      .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))
      .slice(0, MAX_ITEMS)
      .map((entry) => {
        const path = `${dir}${entry.name}${entry.isDirectory() ? "/" : ""}`;
        return { value: `@${path}`, label: path };
      });
    return items.length === 0 ? null : { items, prefix: `@${typed}` };
  }

  applyCompletion(lines: string[], cursorLine: number, cursorCol: number, item: AutocompleteItem, prefix: string) {
    if (!prefix.startsWith("@")) return this.inner.applyCompletion(lines, cursorLine, cursorCol, item, prefix);
    const line = lines[cursorLine] ?? "";
    const start = cursorCol - prefix.length;
    // A directory stays open for the next segment; a file is followed by a space.
    const inserted = item.value.endsWith("/") ? item.value : `${item.value} `;
    const next = [...lines];
    next[cursorLine] = line.slice(0, start) + inserted + line.slice(cursorCol);
    return { lines: next, cursorLine, cursorCol: start + inserted.length };
  }

  shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
    return this.inner.shouldTriggerFileCompletion?.(lines, cursorLine, cursorCol) ?? true;
  }
}
