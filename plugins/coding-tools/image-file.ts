import { imageSize } from "image-size";

export interface SniffedImage {
  format: "PNG" | "JPEG" | "GIF" | "WebP";
  mimeType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
}

const ascii = (bytes: Uint8Array, start: number, text: string): boolean =>
  bytes.length >= start + text.length && [...text].every((c, i) => bytes[start + i] === c.charCodeAt(0));

/** The image formats models accept, recognised by their signature bytes (never by file name). */
export function sniffImage(head: Uint8Array): SniffedImage | undefined {
  if (head.length >= 8 && head[0] === 0x89 && ascii(head, 1, "PNG\r\n\x1a\n")) return { format: "PNG", mimeType: "image/png" };
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { format: "JPEG", mimeType: "image/jpeg" };
  if (ascii(head, 0, "GIF87a") || ascii(head, 0, "GIF89a")) return { format: "GIF", mimeType: "image/gif" };
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WEBP")) return { format: "WebP", mimeType: "image/webp" };
  return undefined;
}

/** Width and height from the image's header (the `image-size` package), or undefined when it cannot be read. */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
