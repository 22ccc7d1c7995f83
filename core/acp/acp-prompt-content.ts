import { RequestError } from "@agentclientprotocol/sdk";
import type * as acp from "@agentclientprotocol/sdk";

/**
 * An ACP prompt as the text of one Zi user message. Text blocks are kept as they are; a resource
 * link becomes a mention the model can follow with its file tools (`@path` for a `file:` URI);
 * an embedded text resource is quoted whole under its URI, in a `<context>` element, so the model
 * knows where it came from. Blocks Zi does not take (images and audio, whose capabilities are not
 * advertised; binary resources) are refused with `invalid params` rather than silently dropped.
 */
export function promptText(blocks: readonly acp.ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "resource_link":
        parts.push(mention(block.uri, block.name));
        break;
      case "resource": {
        const resource = block.resource;
        if (!("text" in resource)) throw RequestError.invalidParams(undefined, `binary resources are not supported (${resource.uri})`);
        parts.push(`<context uri="${escapeAttribute(resource.uri)}">\n${resource.text}\n</context>`);
        break;
      }
      default:
        throw RequestError.invalidParams(undefined, `${block.type} content is not supported in prompts`);
    }
  }
  const text = parts.join("\n");
  if (text.trim() === "") throw RequestError.invalidParams(undefined, "the prompt is empty");
  return text;
}

/** `@/abs/path` for a local file, else the link in Markdown form. */
function mention(uri: string, name: string): string {
  if (uri.startsWith("file://")) {
    try {
      return `@${decodeURIComponent(new URL(uri).pathname)}`;
    } catch {
      // not a parseable URL: fall through to the link form
    }
  }
  return `[@${name}](${uri})`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
