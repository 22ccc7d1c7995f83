import type { Dirent } from "node:fs";
import { join } from "node:path";
import { AsyncFs } from "../../core/config/async-fs.js";
import { IgnoreRules } from "./ignore-rules.js";
import { comparePaths } from "./search-backend.js";

/** Directories read to weigh a tree; past them, an unread directory counts as the mean of the read ones. */
const MAX_DIRECTORY_READS = 512;
/** Concurrent directory reads while weighing. */
const READ_BATCH = 16;
/** Entries a split may name: each is a `--glob` of the other parts' rg. */
const MAX_UNITS = 128;
/** A layout older than this is weighed again, beside the search that found it stale (which uses the old one). */
const REFRESH_MS = 10_000;
/** Roots whose layouts are kept. */
const MAX_ROOTS = 16;
/** A split whose heaviest part still holds this share of the work is not worth another rg. */
const MAX_USEFUL_SHARE = 0.8;

interface Entry {
  relative: string;
  /** A directory's ignore rules, nested ones included, while it waits to be read. */
  rules?: IgnoreRules;
  isDirectory: boolean;
  /** Files at or below this entry that rg would search (directories: an estimate past the read budget). */
  weight: number;
  /** A read directory's entries in rg's `--sort path` order; undefined for files and unread directories. */
  entries?: Entry[];
  parent?: Entry;
}

/** One consecutive run of the tree in path order: what one `rg --sort path` searches. */
export interface SearchPart {
  /** Root-relative paths (files and directories) of the other parts, left out of this part's walk. */
  excluded: string[];
  /** Whether a root-relative path falls in this part's run; each path falls in exactly one part. */
  owns: (relative: string) => boolean;
}

/**
 * How the work of a search is spread over a root's tree: how many files rg would search under each
 * entry, read by a bounded walk that honours the ignore files (directories only: the weights only
 * balance the parts, they never decide what is searched, which each part's `owns` and rg's own rules
 * do). Kept per root and weighed again in the background once stale, so no search waits for it; a
 * root seen for the first time is searched as one walk. Only a root that is its own real path is
 * split, so rg's globs (relative to its working directory, the root) name the entries weighed here;
 * were they to miss, a part would walk more, never show more.
 */
export class SearchTreeLayout {
  private static readonly layouts = new Map<string, { layout: SearchTreeLayout | undefined; at: number; weighing?: Promise<void> }>();

  private constructor(private readonly top: Entry) {}

  /** The root's layout if one has been weighed (undefined if none yet, or the root cannot be split); weighs it again when missing or stale. */
  static known(root: string): SearchTreeLayout | undefined {
    const known = SearchTreeLayout.layouts.get(root);
    if (!known || (!known.weighing && Date.now() - known.at > REFRESH_MS)) void SearchTreeLayout.weigh(root);
    return known?.layout;
  }

  /** Weighs the root now, or joins the weighing under way; resolves once its layout is kept. */
  static weigh(root: string): Promise<void> {
    const known = SearchTreeLayout.layouts.get(root);
    if (known?.weighing) return known.weighing;
    const entry: { layout: SearchTreeLayout | undefined; at: number; weighing?: Promise<void> } = { layout: known?.layout, at: known?.at ?? 0 };
    // Most recently weighed last, so the first is the one to forget.
    SearchTreeLayout.layouts.delete(root);
    SearchTreeLayout.layouts.set(root, entry);
    if (SearchTreeLayout.layouts.size > MAX_ROOTS) SearchTreeLayout.layouts.delete(SearchTreeLayout.layouts.keys().next().value!);
    entry.weighing = SearchTreeLayout.measure(root)
      .catch(() => undefined) // an unreadable root is searched as one walk
      .then((layout) => {
        entry.layout = layout;
        entry.at = Date.now();
        entry.weighing = undefined;
      });
    return entry.weighing;
  }

  /**
   * The tree cut into at most `count` consecutive runs of about equal weight, or undefined when no cut
   * leaves every part under MAX_USEFUL_SHARE of the work or the tree holds fewer than `minFiles`.
   */
  split(count: number, minFiles: number): SearchPart[] | undefined {
    const total = this.top.weight;
    if (count < 2 || total < minFiles || !this.top.entries) return undefined;
    let units = this.top.entries;
    // A heavy directory is opened into its entries, so that a tree kept under one `src/` splits too.
    for (;;) {
      const heaviest = units.reduce((a, b) => (b.weight > a.weight ? b : a), units[0]!);
      // Opened down to a quarter of a share, so the cuts can land near the shares.
      if (!heaviest?.entries || heaviest.weight <= total / count / 4) break;
      const at = units.indexOf(heaviest);
      const opened = [...units.slice(0, at), ...heaviest.entries, ...units.slice(at + 1)];
      if (opened.length > MAX_UNITS) break;
      units = opened;
    }
    const cuts = SearchTreeLayout.cuts(units, count, total);
    if (cuts.length === 0) return undefined;
    const bounds = [0, ...cuts, units.length];
    let heaviestPart = 0;
    for (let part = 0; part + 1 < bounds.length; part++) {
      heaviestPart = Math.max(heaviestPart, units.slice(bounds[part], bounds[part + 1]).reduce((sum, unit) => sum + unit.weight, 0));
    }
    if (heaviestPart > MAX_USEFUL_SHARE * total) return undefined;
    const lowers = cuts.map((cut) => units[cut]!.relative);
    return bounds.slice(0, -1).map((start, part) => {
      const end = bounds[part + 1]!;
      const from = part === 0 ? undefined : lowers[part - 1];
      const to = lowers[part];
      return {
        excluded: SearchTreeLayout.coalesced([...units.slice(0, start), ...units.slice(end)]),
        owns: (relative: string) => (from === undefined || comparePaths(relative, from) >= 0) && (to === undefined || comparePaths(relative, to) < 0),
      };
    });
  }

  /** The entries left out, a directory named in place of all its entries when every one of them is. */
  private static coalesced(units: Entry[]): string[] {
    const left = new Set(units);
    for (let changed = true; changed; ) {
      changed = false;
      for (const unit of left) {
        const parent = unit.parent;
        if (!parent?.parent || left.has(parent) || !parent.entries!.every((entry) => left.has(entry))) continue;
        for (const entry of parent.entries!) left.delete(entry);
        left.add(parent);
        changed = true;
      }
    }
    return [...left].map((unit) => unit.relative).sort(comparePaths);
  }

  /** Indexes where parts after the first start: the first unit whose prefix sum reaches each equal share. */
  private static cuts(units: Entry[], count: number, total: number): number[] {
    const cuts: number[] = [];
    let sum = 0;
    for (let i = 0; i < units.length && cuts.length < count - 1; i++) {
      const before = sum;
      sum += units[i]!.weight;
      const share = (total * (cuts.length + 1)) / count;
      if (sum < share) continue;
      // Cut before or after this unit, whichever lands nearer the share; never an empty part.
      const cut = share - before < sum - share ? i : i + 1;
      if (cut > (cuts.at(-1) ?? 0) && cut < units.length) cuts.push(cut);
    }
    return cuts;
  }

  private static async measure(root: string): Promise<SearchTreeLayout | undefined> {
    if ((await AsyncFs.realpath(root)) !== root) return undefined;
    const top: Entry = { relative: "", isDirectory: true, weight: 0, rules: await IgnoreRules.forRoot(root) };
    const queue: Entry[] = [top];
    const read: Entry[] = [];
    let splittable = true;
    while (queue.length > 0 && read.length < MAX_DIRECTORY_READS) {
      const batch = queue.splice(0, Math.min(READ_BATCH, MAX_DIRECTORY_READS - read.length));
      await Promise.all(
        batch.map(async (directory) => {
          let dirents: Dirent[];
          let rules: IgnoreRules;
          const absolute = join(root, directory.relative);
          try {
            dirents = await AsyncFs.readdir(absolute, { withFileTypes: true });
            rules = directory.relative === "" ? directory.rules! : await directory.rules!.descend(absolute, directory.relative, dirents);
          } catch {
            return; // an unreadable directory weighs nothing, as rg skips it
          }
          directory.rules = undefined;
          const entries: Entry[] = [];
          for (const dirent of dirents) {
            // A name that is not UTF-8 cannot be named in rg's globs as it is on disk.
            if (dirent.name.includes("\uFFFD")) splittable = false;
            const relative = directory.relative === "" ? dirent.name : `${directory.relative}/${dirent.name}`;
            const isDirectory = dirent.isDirectory();
            // Files are not matched against the rules: ignore files name directories far more often, and a weight may be a little off.
            if (isDirectory && rules.ignores(relative, true)) continue;
            const entry: Entry = { relative, isDirectory, weight: isDirectory ? 0 : 1, rules: isDirectory ? rules : undefined, parent: directory };
            entries.push(entry);
            if (isDirectory) queue.push(entry);
          }
          directory.entries = entries.sort((a, b) => comparePaths(a.relative, b.relative));
          read.push(directory);
        }),
      );
    }
    if (!splittable) return undefined;
    const mean = read.reduce((sum, directory) => sum + directory.entries!.filter((entry) => !entry.isDirectory).length, 0) / Math.max(1, read.length);
    const weigh = (entry: Entry): number => {
      if (!entry.isDirectory) return entry.weight;
      entry.weight = entry.entries ? entry.entries.reduce((sum, child) => sum + weigh(child), 0) : mean;
      return entry.weight;
    };
    weigh(top);
    return new SearchTreeLayout(top);
  }
}
