/** A prompt image as `session.prompt` takes it and the journaled user message carries it (pi-ai's ImageContent). */
export interface PromptImage {
  type: "image";
  /** Base64 (RFC 4648, with padding), no `data:` prefix. */
  data: string;
  mimeType: ImageMimeType;
}

export type ImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** Each accepted type and how its files begin; `data` must decode to bytes that begin so. */
const SIGNATURES: ReadonlyMap<ImageMimeType, { label: string; matches(bytes: Buffer): boolean }> = new Map([
  ["image/png", { label: "PNG", matches: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) }],
  ["image/jpeg", { label: "JPEG", matches: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff }],
  ["image/gif", { label: "GIF", matches: (b: Buffer) => ["GIF87a", "GIF89a"].includes(b.toString("latin1", 0, 6)) }],
  ["image/webp", { label: "WebP", matches: (b: Buffer) => b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP" }],
]);

export const IMAGE_MIME_TYPES: readonly ImageMimeType[] = [...SIGNATURES.keys()];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Why `data` is not a usable image of type `mimeType`, or undefined when it is: it must be padded
 * base64 and decode to bytes with that type's signature (so a JPEG sent as `image/png` is refused
 * rather than mislabelled to the provider). Only the first bytes are decoded.
 */
export function imageDataProblem(data: string, mimeType: string): string | undefined {
  if (data.length === 0) return "must not be empty";
  if (data.length % 4 !== 0 || !BASE64.test(data) || /=[^=]/.test(data)) return "is not valid base64 (RFC 4648, padded, no data: prefix or line breaks)";
  const signature = SIGNATURES.get(mimeType as ImageMimeType);
  if (!signature) return undefined;
  const head = Buffer.from(data.slice(0, 24), "base64");
  if (signature.matches(head)) return undefined;
  const actual = [...SIGNATURES.values()].find((other) => other.matches(head));
  return actual ? `is a ${actual.label} image, not ${mimeType}` : `is not a ${signature.label} image (its bytes do not start with the ${signature.label} signature)`;
}

/** The base64 bytes of a prompt's images together (what `maxPromptImageBytes` bounds). */
export function imageBytes(images: readonly { data: unknown }[] | undefined): number {
  let total = 0;
  for (const image of images ?? []) total += typeof image?.data === "string" ? image.data.length : 0;
  return total;
}
