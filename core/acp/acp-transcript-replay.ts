import type { ZiMethodClient } from "../boot/in-process-methods.js";
import type { AcpEventMapper, ReplayedMessage } from "./acp-event-mapper.js";

const PAGE = 100;

/**
 * `session/load`: the journal's transcript (`session.get_messages`, page by page) through the live
 * projection (`AcpEventMapper.replay`), so a loaded session shows what the editor would have seen live.
 */
export async function replayTranscript(methods: ZiMethodClient, mapper: AcpEventMapper): Promise<void> {
  for (let start: number | null = 0; start !== null; ) {
    const page: { messages: readonly unknown[]; nextStart: number | null } = await methods.call("session.get_messages", { start, limit: PAGE });
    for (const message of page.messages) await mapper.replay(message as ReplayedMessage);
    start = page.nextStart;
  }
}
