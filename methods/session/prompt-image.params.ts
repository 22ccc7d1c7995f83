import { Equals, IsIn, IsString } from "class-validator";
import { DescribedRule, IMAGE_MIME_TYPES, imageDataProblem, type ImageMimeType } from "../../core/family/family-api.js";

/** Padded base64 whose bytes carry the signature of the image's `mimeType` (core/wire/prompt-image.ts). */
const IsImageData = () =>
  DescribedRule({
    name: "isImageData",
    // The signature check has no JSON Schema equivalent: `zi schema` says it in words.
    jsonSchema: { contentEncoding: "base64", description: "Padded base64 of an image whose bytes match mimeType (PNG, JPEG, GIF or WebP signature)." },
    validate: (data, object) => typeof data === "string" && imageDataProblem(data, String((object as PromptImageParams).mimeType)) === undefined,
    message: (data, object) => `data ${typeof data === "string" ? imageDataProblem(data, String((object as PromptImageParams).mimeType)) : "must be a string"}`,
  });

/** One item of `session.prompt` `images`. */
export class PromptImageParams {
  @Equals("image")
  type!: "image";

  @IsString()
  @IsImageData()
  data!: string;

  @IsIn(IMAGE_MIME_TYPES)
  mimeType!: ImageMimeType;
}
