import type { ContentMatch } from "./search-backend.js";

const NUL = 0;
const LF = 10;
const COLON = 58;
const SPACE = 32;
const CR = 13;
/**
 * What rg prints, in place of a record, for a file it found binary: after a match in a walked file
 * (it stopped at the NUL byte), or for a file named on its command line. No NUL: the path ends at ": ".
 */
const BINARY_NOTE = /^(.*): (?:WARNING: stopped searching binary file after match|binary file matches) \(found "\\0" byte around offset \d+\)$/s;

/**
 * Reads `rg --null --with-filename --line-number` output ("path NUL line:text LF" records) into matches
 * in rg's order. A path may hold any byte but NUL (LF too), so a record's path ends at its NUL and only
 * then its text at LF (`end`); a binary note has no NUL, and starts with the path of the records before
 * it. A file's records are held until the next file's first record, the end, or its per-file limit (rg then stops reading it): rg stops at a NUL byte after a match and says so in a
 * note after the file's records, and a file with a NUL anywhere is binary, without matches, for the
 * Node search (`decodeSearchable`). Such a file's held records are dropped, so both backends agree.
 */
export class RipgrepMatchRecords {
  private held: ContentMatch[] = [];
  private heldPath = "";
  private heldShows = true;
  private enough = false;
  /** What rg puts before a root-relative path; the root itself when it is the file searched. */
  private readonly prefix: string;
  /** The path a binary note can be about: the last record's, as rg printed it (the root's before any). */
  private notePath: Buffer;

  constructor(
    root: string,
    private readonly rootIsFile: boolean,
    /** Which root-relative files may show (the glob, the permission rules); absent when the root is the file. */
    private readonly shows: ((relative: string) => boolean) | undefined,
    private readonly perFileLimit: number,
    private readonly onMatch: (match: ContentMatch) => boolean,
  ) {
    this.prefix = rootIsFile || root.endsWith("/") ? root : `${root}/`;
    this.notePath = Buffer.from(root);
  }

  /** Where the record starting at `start` ends (RipgrepProcess's `recordEnd`): its LF, or -1 while it is incomplete. */
  readonly end = (data: Buffer, start: number): number => {
    const nul = data.indexOf(NUL, start);
    const path = this.notePath;
    const after = start + path.length;
    // A note: the last file's path, ": " and the note's words up to LF, with no NUL among them.
    if (data[after] === COLON && data[after + 1] === SPACE && data.compare(path, 0, path.length, start, after) === 0) {
      const lf = data.indexOf(LF, after);
      if (lf < 0) return -1;
      if ((nul < 0 || nul > lf) && BINARY_NOTE.test(data.toString("utf8", start, lf))) return lf;
    }
    return nul < 0 ? -1 : data.indexOf(LF, nul + 1);
  };

  /** One line of rg's output; false once `onMatch` has had enough. */
  take(line: Buffer): boolean {
    const nul = line.indexOf(NUL);
    if (nul < 0) return this.note(line.toString("utf8"));
    const colon = line.indexOf(COLON, nul + 1);
    if (colon < 0) throw new Error("ripgrep printed a record that is not a match.");
    const printed = line.toString("utf8", 0, nul);
    // rg prints every path under the root as given: anything else is a record misread, never shown.
    if (this.rootIsFile ? printed !== this.prefix : !printed.startsWith(this.prefix)) throw new Error("ripgrep printed a record that is not a match.");
    const relative = this.rootIsFile ? "" : printed.slice(this.prefix.length);
    if (printed !== this.heldPath) {
      if (!this.flush()) return false;
      this.heldPath = printed;
      this.notePath = Buffer.from(line.subarray(0, nul));
      this.heldShows = !this.shows || this.shows(relative);
    }
    if (!this.heldShows) return true;
    const end = line[line.length - 1] === CR ? line.length - 1 : line.length;
    this.held.push({ relative, line: Number(line.toString("latin1", nul + 1, colon)), text: line.toString("utf8", colon + 1, end) });
    // rg stops reading a file at its limit, so no note can follow: the file's matches are final.
    return this.held.length < this.perFileLimit || this.flush();
  }

  /** After rg ended by itself: the last file's held records; false once `onMatch` has had enough. */
  finish(): boolean {
    return this.flush();
  }

  private note(text: string): boolean {
    const binary = BINARY_NOTE.exec(text);
    if (!binary) throw new Error("ripgrep printed a record that is not a match.");
    // A binary file that printed no record (or was filtered out) has nothing held to drop.
    if (binary[1] === this.heldPath) this.held = [];
    return true;
  }

  private flush(): boolean {
    const held = this.held;
    this.held = [];
    for (const match of held) {
      if (this.enough) break;
      if (!this.onMatch(match)) this.enough = true;
    }
    return !this.enough;
  }
}
