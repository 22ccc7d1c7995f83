import { NodeSearch } from "./node-search.js";
import { RipgrepProcess } from "./ripgrep-process.js";
import { RipgrepSearch } from "./ripgrep-search.js";
import type { SearchBackend } from "./search-backend.js";

/**
 * `ripgrep`: a path to `rg`, false for the Node search, or undefined to use `rg` from PATH when there
 * is one. Decided per call, so installing ripgrep during a session takes effect at once.
 */
export function chooseSearchBackend(ripgrep: string | false | undefined): SearchBackend {
  if (ripgrep === false) return new NodeSearch();
  const executable = ripgrep ?? RipgrepProcess.locate();
  return executable ? new RipgrepSearch(executable) : new NodeSearch();
}
