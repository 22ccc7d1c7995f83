import { describe, expect, it } from "@jest/globals";
import { MCP_LIMITS } from "../../../plugins/mcp/mcp-limits.js";
import { McpResultConverter } from "../../../plugins/mcp/mcp-result-converter.js";

const converter = new McpResultConverter((text) => text.split("s3cret").join("[redacted]"));

describe("McpResultConverter", () => {
  it("keeps text and images, turns resource links and embedded resources into text, redacts secrets", () => {
    const result = converter.convert({
      content: [
        { type: "text", text: "token s3cret" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "mem://note", mimeType: "text/plain", text: "embedded" } },
        { type: "resource", resource: { uri: "mem://bin", mimeType: "application/zip", blob: "AAAA" } },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      ],
    });
    expect(result).toEqual({
      content: [
        { type: "text", text: "token [redacted]" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "text", text: "Resource link: a.txt <file:///a.txt> (text/plain)" },
        { type: "text", text: "Resource <mem://note> (text/plain):\nembedded" },
        { type: "text", text: "[binary resource <mem://bin> (application/zip, 3 bytes) omitted]" },
        { type: "text", text: "[audio omitted (audio/wav, 3 bytes)]" },
      ],
    });
  });

  it("makes isError an error result, and structuredContent text when there is no content", () => {
    expect(converter.convert({ content: [{ type: "text", text: "bad" }], isError: true })).toEqual({ content: [{ type: "text", text: "bad" }], isError: true });
    expect(converter.convert({ content: [], structuredContent: { sum: 3 } })).toEqual({ content: [{ type: "text", text: '{"sum":3}' }] });
    expect(converter.convert({ content: [] })).toEqual({ content: [{ type: "text", text: "(no output)" }] });
  });

  it("bounds text to maxOutputBytes in all and says how much was left out", () => {
    const half = "x".repeat(MCP_LIMITS.maxOutputBytes / 2 + 10);
    const result = converter.convert({ content: [{ type: "text", text: half }, { type: "text", text: half }, { type: "text", text: "tail" }] });
    const texts = result.content.map((part) => (part.type === "text" ? part.text : ""));
    expect(Buffer.byteLength(texts.slice(0, -1).join(""))).toBe(MCP_LIMITS.maxOutputBytes);
    expect(texts.at(-1)).toBe(`\n[output truncated: 24 bytes of text over the ${MCP_LIMITS.maxOutputBytes}-byte bound were left out]`);
  });

  it("bounds the number of images", () => {
    const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const result = converter.convert({ content: Array.from({ length: MCP_LIMITS.maxImages + 1 }, () => image) });
    expect(result.content.filter((part) => part.type === "image")).toHaveLength(MCP_LIMITS.maxImages);
    expect(result.content.at(-1)).toEqual({ type: "text", text: "[image omitted (image/png, 3 bytes): the result's image bound was reached]" });
  });
});
