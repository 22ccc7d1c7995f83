import { closeSync, constants, fstatSync, openSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { FILE_LIMITS, refusalReason } from "../config/bounded-file-reader.js";
import { loadJournal } from "../journal/journal-loader.js";
import { SessionHtmlExport } from "../journal/session-html-export.js";
import type { ExportCommand } from "./export-command.js";

/**
 * Writes a journal's self-contained HTML page (the one `session.export` writes): to OUT, or to the
 * journal's name with `.html` in the working directory. The journal is only read (opened read-only,
 * never repaired: its damaged lines are left out of the page). Prints the page's path.
 */
export async function runExport(command: ExportCommand, cwd: string, print: (text: string) => Promise<void>, log: (line: string) => void): Promise<number> {
  const journal = resolve(cwd, command.journal);
  let fd: number;
  try {
    fd = openSync(journal, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    log(`zi: cannot export ${journal}: ${(error as Error).message}`);
    return 1;
  }
  try {
    const refusal = refusalReason(fstatSync(fd), FILE_LIMITS.maxJournalBytes);
    if (refusal) throw new Error(`session file ${journal} ${refusal}`);
    const { entries } = loadJournal(fd, FILE_LIMITS.maxJournalBytes);
    const out = resolve(cwd, command.out ?? `${basename(journal).replace(/\.jsonl$/, "")}.html`);
    writeFileSync(out, SessionHtmlExport.render(entries), { mode: 0o600 });
    await print(out);
    return 0;
  } catch (error) {
    log(`zi: cannot export ${journal}: ${(error as Error).message}`);
    return 1;
  } finally {
    closeSync(fd);
  }
}
