import { SessionCatalog } from "../journal/session-catalog.js";

/** `--continue`: the journal of this directory's most recently written session, if there is one. */
export async function latestSessionFile(catalog: SessionCatalog, cwd: string): Promise<string | undefined> {
  const { sessions } = await catalog.list(cwd, 0, 1);
  return sessions[0]?.path;
}
