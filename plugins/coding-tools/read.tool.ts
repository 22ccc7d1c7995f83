import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import { declaredString } from "./declared-args.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { open, readFile } from "node:fs/promises";
import { imageDimensions, type SniffedImage, sniffImage } from "./image-file.js";
import { LineWindowReader } from "./line-window-reader.js";
import { describeFileError, statFile } from "./text-file-reader.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath, resolveToolPath, toolCallPath } from "./tool-paths.js";

const { maxOutputLines, maxOutputBytes, maxImageBytes, maxImageSide } = CODING_TOOL_LIMITS;
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

/** `read`: a window of a text file's lines, exactly as they are (no line-number prefixes). */
export class ReadTool implements AgentTool {
  readonly name = "read";
  readonly description =
    `Read a UTF-8 text file. Returns at most ${maxOutputLines} lines or ${maxOutputBytes / 1024} KiB per call, ` +
    "verbatim (no line numbers; a CR before LF is not shown). When more remains, a final note gives the offset to continue with. " +
    "offset is the 1-based first line (default 1); limit is the number of lines. Relative paths resolve against the working directory. " +
    `PNG, JPEG, GIF and WebP images (recognised by content) are returned as images when the model accepts images ` +
    `(at most ${maxImageSide} pixels per side and ${(maxImageBytes / 1024 / 1024).toFixed(2)} MiB); other binary files are refused.`;
  readonly parameters = {
    type: "object",
    properties: {
      path: { type: "string", description: "File to read (relative to the working directory, or absolute)." },
      offset: { type: "integer", minimum: 1, description: "1-based line to start at (default 1)." },
      limit: { type: "integer", minimum: 1, maximum: maxOutputLines, description: `Lines to read (default and max ${maxOutputLines}).` },
    },
    required: ["path"],
    additionalProperties: false,
  };

  readonly declaration: ToolDeclaration = {
    effect: "read",
    describe: (args, cwd) => {
      const path = declaredString(args, "path") ?? "";
      const offset = typeof args.offset === "number" && Number.isInteger(args.offset) && args.offset > 0 ? args.offset : undefined;
      return { title: `Read ${path}`, paths: [toolCallPath(cwd, path, offset)] };
    },
  };

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const path = args.requiredString("path");
    const offset = args.optionalInteger("offset", { min: 1, max: Number.MAX_SAFE_INTEGER }) ?? 1;
    const limit = args.optionalInteger("limit", { min: 1, max: maxOutputLines }) ?? maxOutputLines;
    const absolute = resolveToolPath(context.cwd, path);
    const shown = displayPath(context.cwd, absolute);
    const stats = await statFile(absolute, shown);
    const image = sniffImage(await ReadTool.head(absolute, shown));
    if (image) return ReadTool.readImage(absolute, shown, image, stats.size, context);
    const window = await LineWindowReader.read(absolute, shown, { offset, limit, maxBytes: maxOutputBytes, signal: context.signal });
    const { totalLines, lines } = window;
    if (totalLines === 0) {
      return { content: [{ type: "text", text: "(empty file)" }], details: { path: shown, startLine: 0, endLine: 0, totalLines, truncated: false } };
    }
    if (offset > totalLines) throw new Error(`offset ${offset} is beyond the end of ${shown} (${totalLines} lines).`);
    const endLine = offset + lines.length - 1;
    const more = endLine < totalLines;
    const notes: string[] = [];
    if (window.clippedLine) notes.push(`Line ${offset} is longer than ${maxOutputBytes / 1024} KiB and was cut; use bash (e.g. cut -c or head -c) to see the rest of it.`);
    if (more) notes.push(`Showing lines ${offset}-${endLine} of ${totalLines}. Use offset=${endLine + 1} to continue.`);
    const text = lines.join("\n") + (notes.length > 0 ? `\n\n[${notes.join(" ")}]` : "");
    const details: Record<string, unknown> = { path: shown, startLine: offset, endLine, totalLines, truncated: more || window.clippedLine };
    if (more) details.nextOffset = endLine + 1;
    return { content: [{ type: "text", text }], details };
  }

  private static async head(absolute: string, shown: string): Promise<Uint8Array> {
    const handle = await open(absolute, "r").catch((error: unknown) => {
      throw new Error(describeFileError(error, shown));
    });
    try {
      const buffer = Buffer.alloc(16);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /**
   * An image for a model that accepts images; a text note for one that does not. Images beyond the
   * bounds are refused with the way out (a smaller copy), not resized: no image library that installs
   * without native code or install scripts is worth its weight for this one job.
   */
  private static async readImage(absolute: string, shown: string, image: SniffedImage, size: number, context: AgentToolContext): Promise<AgentToolResult> {
    const accepts = context.model === undefined || context.model.input.includes("image");
    const facts = (width?: number, height?: number): string => `${image.format}${width ? `, ${width}x${height} pixels` : ""}, ${kib(size)}`;
    const shrink = `Make a smaller copy (for example \`convert ${shown} -resize 1568x1568 /tmp/small.png\` with ImageMagick) and read that.`;
    if (size > maxImageBytes) {
      throw new Error(`${shown} is an image (${facts()}) larger than the ${(maxImageBytes / 1024 / 1024).toFixed(2)} MiB read accepts. ${shrink}`);
    }
    const bytes = await readFile(absolute).catch((error: unknown) => {
      throw new Error(describeFileError(error, shown));
    });
    const dimensions = imageDimensions(bytes);
    const details = { path: shown, mimeType: image.mimeType, bytes: bytes.length, width: dimensions?.width, height: dimensions?.height, image: accepts };
    if (!dimensions) throw new Error(`${shown} looks like a ${image.format} image but its header cannot be read; it may be damaged.`);
    if (dimensions.width > maxImageSide || dimensions.height > maxImageSide) {
      throw new Error(`${shown} is an image (${facts(dimensions.width, dimensions.height)}) larger than ${maxImageSide} pixels per side. ${shrink}`);
    }
    if (!accepts) {
      const model = `${context.model!.provider}/${context.model!.id}`;
      return { content: [{ type: "text", text: `${shown} is an image (${facts(dimensions.width, dimensions.height)}). The current model (${model}) does not accept images, so it cannot be shown.` }], details };
    }
    return {
      content: [
        { type: "text", text: `Read image ${shown} (${facts(dimensions.width, dimensions.height)}).` },
        { type: "image", data: bytes.toString("base64"), mimeType: image.mimeType },
      ],
      details,
    };
  }
}
