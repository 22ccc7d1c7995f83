import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgentToolResult } from "../../core/session/agent-tool.js";
import { clipUtf8 } from "../../core/wire/utf8-clip.js";
import { MCP_LIMITS } from "./mcp-limits.js";

type Part = AgentToolResult["content"][number];
type McpContent = CallToolResult["content"][number];

const base64Bytes = (data: string): number => Math.floor((data.length * 3) / 4);

/**
 * An MCP tool result as the model gets it: text as text; images as image parts (pi-ai replaces them
 * with a note for a model that takes no images); audio, resource links and embedded resources as
 * text; `structuredContent` as JSON text when there is no content. Text is bounded like every tool's
 * output (50 KiB in all, with a note saying what was cut), images by count and size, and every
 * registered secret is redacted before the result reaches frames or the journal.
 */
export class McpResultConverter {
  constructor(private readonly redact: (text: string) => string) {}

  convert(result: CallToolResult): AgentToolResult {
    const content = Array.isArray(result.content) ? result.content : [];
    const parts: Part[] = [];
    let textBytes = 0;
    let cutBytes = 0;
    let images = 0;
    let imageBytes = 0;
    const addText = (raw: string): void => {
      const text = this.redact(raw);
      const size = Buffer.byteLength(text);
      const room = MCP_LIMITS.maxOutputBytes - textBytes;
      if (size <= room) {
        parts.push({ type: "text", text });
        textBytes += size;
        return;
      }
      if (room > 0) {
        const clipped = clipUtf8(text, room).text;
        if (clipped !== "") parts.push({ type: "text", text: clipped });
        textBytes += Buffer.byteLength(clipped);
      }
      cutBytes += size - Math.max(0, room);
    };
    for (const item of content) {
      if (item.type === "image") {
        const size = base64Bytes(item.data);
        if (images < MCP_LIMITS.maxImages && imageBytes + size <= MCP_LIMITS.maxImageBytes) {
          parts.push({ type: "image", data: item.data, mimeType: item.mimeType });
          images++;
          imageBytes += size;
        } else addText(`[image omitted (${item.mimeType}, ${size} bytes): the result's image bound was reached]`);
        continue;
      }
      addText(McpResultConverter.describe(item));
    }
    if (content.length === 0 && result.structuredContent !== undefined) addText(JSON.stringify(result.structuredContent));
    if (cutBytes > 0) {
      parts.push({ type: "text", text: `\n[output truncated: ${cutBytes} bytes of text over the ${MCP_LIMITS.maxOutputBytes}-byte bound were left out]` });
    }
    if (parts.length === 0) parts.push({ type: "text", text: "(no output)" });
    return result.isError === true ? { content: parts, isError: true } : { content: parts };
  }

  private static describe(item: McpContent): string {
    switch (item.type) {
      case "text":
        return item.text;
      case "audio":
        return `[audio omitted (${item.mimeType}, ${base64Bytes(item.data)} bytes)]`;
      case "resource_link": {
        const about = [item.mimeType, item.description].filter((part) => typeof part === "string" && part !== "").join("; ");
        return `Resource link: ${item.name} <${item.uri}>${about ? ` (${about})` : ""}`;
      }
      case "resource": {
        const resource = item.resource;
        if ("text" in resource && typeof resource.text === "string") return `Resource <${resource.uri}>${resource.mimeType ? ` (${resource.mimeType})` : ""}:\n${resource.text}`;
        const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
        return `[binary resource <${resource.uri}> (${resource.mimeType ?? "unknown type"}, ${base64Bytes(blob)} bytes) omitted]`;
      }
      default:
        return `[content of type ${JSON.stringify((item as { type?: unknown }).type)} omitted]`;
    }
  }
}
