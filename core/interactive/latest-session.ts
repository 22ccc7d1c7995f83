import { AcpSessionStore } from "../acp/acp-session-store.js";

/** `--continue`: the journal of this directory's most recently written session, if there is one. */
export async function latestSessionFile(sessionsDir: string, cwd: string): Promise<string | undefined> {
  const store = new AcpSessionStore(sessionsDir);
  const { sessions } = await store.list(cwd, undefined);
  return sessions[0] === undefined ? undefined : (await store.find(sessions[0].sessionId))?.file;
}
