import { AsyncFs } from "../../core/config/async-fs.js";
import { join } from "node:path";
import { decodeText, FILE_LIMITS, readBoundedFile } from "../../core/config/bounded-file-reader.js";
import type { AgentProfile, ProfileOrigin } from "./agent-profile.js";
import { builtinProfiles } from "./builtin-profiles.js";

/** A directory of profile files, and where it came from. */
export interface ProfileDir {
  dir: string;
  origin: Exclude<ProfileOrigin, "builtin">;
}

/** Reports a broken profile file: one stderr line and an `extension_error` event. */
export type ProfileProblemReporter = (file: string, error: string) => Promise<void>;

/**
 * Every profile by name, by rising priority: built-in, then each directory in order (`ZI_HOME/agents`,
 * then the project's `.zi/agents`), `*.md` files sorted by name. A later profile of the same name
 * replaces an earlier one. A broken file is reported and skipped; the others still load.
 */
export async function discoverProfiles(dirs: readonly ProfileDir[], report: ProfileProblemReporter): Promise<Map<string, AgentProfile>> {
  const profiles = new Map<string, AgentProfile>();
  for (const profile of builtinProfiles()) profiles.set(profile.name, profile);
  for (const { dir, origin } of dirs) {
    let names: string[];
    try {
      names = (await AsyncFs.readdir(dir)).filter((name) => name.endsWith(".md") && !name.startsWith(".")).sort();
    } catch {
      continue; // no such directory: no profiles there
    }
    if (names.length === 0) continue;
    // Imported only for a profile file: the parser's YAML library is a first reply's time where none exists.
    const { parseProfile } = await import("./profile-parser.js");
    const seen = new Map<string, string>();
    for (const name of names) {
      const file = join(dir, name);
      try {
        // The config files' reader: a FIFO, a device or an oversized file is refused unread, never waited on.
        const read = await readBoundedFile(file, FILE_LIMITS.maxProfileBytes);
        if (read.status === "missing") continue; // removed since the listing
        if (read.status === "refused") throw new Error(`the file ${read.reason}`);
        const profile = parseProfile(decodeText(read.bytes), file, origin);
        const earlier = seen.get(profile.name);
        if (earlier) throw new Error(`field "name": "${profile.name}" is already defined by ${earlier}`);
        seen.set(profile.name, file);
        profiles.set(profile.name, profile);
      } catch (error) {
        await report(file, (error as Error).message);
      }
    }
  }
  return profiles;
}
