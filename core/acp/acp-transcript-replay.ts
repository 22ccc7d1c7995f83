import type * as acp from "@agentclientprotocol/sdk";
import type { ZiMethodClient } from "../boot/in-process-methods.js";
import type { SessionPort } from "../ports/session.port.js";
import { argumentDiff, toolCallFields, toolResultContent } from "./acp-tool-calls.js";

const PAGE = 100;

type Block = { type?: string; text?: unknown; thinking?: unknown; data?: unknown; mimeType?: unknown; id?: string; name?: string; arguments?: Record<string, unknown> };
type Message = { role?: string; content?: unknown; toolCallId?: string; toolName?: string; isError?: boolean; details?: unknown; usage?: { cost?: { total?: number } } };

/**
 * `session/load`: the journal's transcript (`session.get_messages`, page by page) as the `session/update`s an editor would have seen live,
 * in order: user messages as `user_message_chunk`, replies as thought and message chunks, each tool
 * call as a `tool_call` and its result as a completed or failed `tool_call_update` (diffs from the
 * call's arguments: the file before the call is not in the journal). Returns the transcript's cost.
 */
export async function replayTranscript(
  methods: ZiMethodClient,
  describe: SessionPort["describeToolCall"],
  send: (update: acp.SessionUpdate) => Promise<void>,
): Promise<number> {
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  let cost = 0;
  for (let start: number | null = 0; start !== null; ) {
    const page: { messages: readonly unknown[]; nextStart: number | null } = await methods.call("session.get_messages", { start, limit: PAGE });
    for (const message of page.messages as Message[]) {
      if (message.role === "user") {
        for (const content of contentBlocks(message.content)) await send({ sessionUpdate: "user_message_chunk", content });
      } else if (message.role === "assistant") {
        const total = message.usage?.cost?.total;
        if (typeof total === "number" && Number.isFinite(total)) cost += total;
        for (const block of (Array.isArray(message.content) ? message.content : []) as Block[]) {
          if (block.type === "text" && typeof block.text === "string" && block.text !== "") {
            await send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: block.text } });
          } else if (block.type === "thinking" && typeof block.thinking === "string" && block.thinking !== "") {
            await send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } });
          } else if (block.type === "toolCall" && typeof block.id === "string" && typeof block.name === "string") {
            const args = block.arguments ?? {};
            calls.set(block.id, { name: block.name, args });
            await send({ sessionUpdate: "tool_call", toolCallId: block.id, ...toolCallFields(describe(block.name, args).info), status: "pending", rawInput: args });
          }
        }
      } else if (message.role === "toolResult" && typeof message.toolCallId === "string") {
        const call = calls.get(message.toolCallId);
        const diff = call && !message.isError ? argumentDiff(describe(call.name, call.args)) : [];
        await send({
          sessionUpdate: "tool_call_update",
          toolCallId: message.toolCallId,
          status: message.isError ? "failed" : "completed",
          content: [...diff, ...toolResultContent(message.content)],
          ...(message.details === undefined ? {} : { rawOutput: message.details }),
        });
      }
    }
    start = page.nextStart;
  }
  return cost;
}

function contentBlocks(content: unknown): acp.ContentBlock[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: acp.ContentBlock[] = [];
  for (const block of content as Block[]) {
    if (block.type === "text" && typeof block.text === "string" && block.text !== "") blocks.push({ type: "text", text: block.text });
    else if (block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string") {
      blocks.push({ type: "image", data: block.data, mimeType: block.mimeType });
    }
  }
  return blocks;
}
