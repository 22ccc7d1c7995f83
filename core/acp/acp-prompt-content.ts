import { RequestError } from "@agentclientprotocol/sdk/unstable";
import type * as acp from "@agentclientprotocol/sdk";
import { IMAGE_MIME_TYPES, imageBytes, imageDataProblem, type ImageMimeType, type PromptImage } from "../wire/prompt-image.js";
import { RPC_LIMITS } from "../wire/limits.js";

/** An ACP prompt as one Zi user message: its text and its images (`session.prompt`'s `images`). */
export interface AcpPromptInput {
  text: string;
  images: PromptImage[];
}

/**
 * An ACP prompt as one Zi user message. Text blocks are kept as they are; a resource
 * link becomes a mention the model can follow with its file tools (`@path` for a `file:` URI);
 * an embedded text resource is quoted whole under its URI, in a `<context>` element, so the model
 * knows where it came from. An image block becomes a prompt image, checked as `session.prompt`
 * checks them (type, base64, signature, count, bytes). Blocks Zi does not take (audio, whose
 * capability is not advertised; binary resources; images by URI only) are refused with
 * `invalid params` rather than silently dropped.
 */
export function promptInput(blocks: readonly acp.ContentBlock[]): AcpPromptInput {
  const parts: string[] = [];
  const images: PromptImage[] = [];
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
      case "image":
        images.push(promptImage(block, images.length));
        break;
      default:
        throw RequestError.invalidParams(undefined, `${block.type} content is not supported in prompts`);
    }
  }
  const text = parts.join("\n");
  if (text.trim() === "") throw RequestError.invalidParams(undefined, images.length > 0 ? "an image prompt needs text too" : "the prompt is empty");
  if (images.length > RPC_LIMITS.maxPromptImages) throw RequestError.invalidParams(undefined, `at most ${RPC_LIMITS.maxPromptImages} images per prompt`);
  if (imageBytes(images) > RPC_LIMITS.maxPromptImageBytes) throw RequestError.invalidParams(undefined, `the images exceed ${RPC_LIMITS.maxPromptImageBytes} bytes of base64`);
  return { text, images };
}

function promptImage(block: acp.ImageContent, index: number): PromptImage {
  if (!IMAGE_MIME_TYPES.includes(block.mimeType as ImageMimeType)) {
    throw RequestError.invalidParams(undefined, `image ${index}: ${block.mimeType} is not one of ${IMAGE_MIME_TYPES.join(", ")}`);
  }
  const problem = imageDataProblem(block.data, block.mimeType);
  if (problem !== undefined) throw RequestError.invalidParams(undefined, `image ${index}: data ${problem}`);
  return { type: "image", data: block.data, mimeType: block.mimeType as ImageMimeType };
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
