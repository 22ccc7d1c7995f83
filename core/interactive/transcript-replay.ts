import type { ChatLog } from "./chat-log.js";
import type { SessionClient } from "./session-client.js";

/**
 * A resumed session's transcript on screen: `session.get_messages` page by page, each message
 * shown as its live events would have shown it.
 */
export async function replayTranscript(client: SessionClient, chat: ChatLog): Promise<void> {
  for (let start: number | null = 0; start !== null; ) {
    const page: { messages: any[]; nextStart: number | null } = await client.call("session.get_messages", { start });
    for (const message of page.messages) {
      if (message.role === "toolResult") {
        chat.apply({ type: "tool_execution_end", toolCallId: message.toolCallId, toolName: message.toolName, result: message, isError: message.isError });
        continue;
      }
      chat.apply({ type: "message_start", message });
      if (message.role !== "assistant") continue;
      chat.apply({ type: "message_end", message });
      for (const block of Array.isArray(message.content) ? message.content : []) {
        if (block.type === "toolCall") chat.apply({ type: "tool_execution_start", toolCallId: block.id, toolName: block.name, args: block.arguments, call: { kind: "other", title: block.name, locations: [] } });
      }
    }
    start = page.nextStart;
  }
}
