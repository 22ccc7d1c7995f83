import { ArrayMaxSize, IsArray, IsIn, IsString, Matches, MinLength } from "class-validator";
import { DescribedRule, MaxBytes, NestedParams, Optional, RPC_LIMITS, imageBytes, type Delivery } from "../../core/family/family-api.js";
import { PromptImageParams } from "./prompt-image.params.js";

/** Only `continue` may carry no text: it resumes from the current context. */
const NonEmptyUnlessContinue = () =>
  DescribedRule({
    name: "nonEmptyUnlessContinue",
    // How `zi schema` describes the rule: it relates two fields, so it is a member of the object's allOf.
    objectSchema: {
      if: { properties: { delivery: { not: { const: "continue" } } } },
      then: { properties: { text: { not: { const: "" } } } },
    },
    validate: (text, object) => (object as PromptParams).delivery === "continue" || text !== "",
    message: () => "text must not be empty unless delivery is continue",
  });

/** The images of one prompt together: at most `maxPromptImageBytes` of base64. */
const ImagesWithinBytes = () =>
  DescribedRule({
    name: "imagesWithinBytes",
    jsonSchema: { "x-maxTotalBytes": RPC_LIMITS.maxPromptImageBytes },
    validate: (images) => !Array.isArray(images) || imageBytes(images) <= RPC_LIMITS.maxPromptImageBytes,
    message: () => `images must hold at most ${RPC_LIMITS.maxPromptImageBytes} bytes of base64 data in all`,
  });

/** Images ride with text: a `continue` without text cannot carry them. */
const OnlyWithText = () =>
  DescribedRule({
    name: "imagesOnlyWithText",
    objectSchema: {
      if: { properties: { text: { const: "" } }, required: ["text"] },
      then: { properties: { images: { maxItems: 0 } } },
    },
    validate: (images, object) => !Array.isArray(images) || images.length === 0 || (object as PromptParams).text !== "",
    message: () => "images need text: a continue without text cannot carry images",
  });

/** A JSON Schema object; the session compiles it (ajv) and refuses one that does not compile. */
const IsSchemaObject = () =>
  DescribedRule({
    name: "isSchemaObject",
    jsonSchema: { type: "object", description: "A JSON Schema the run's final answer must match (docs/headless.md, \"Structured output\")." },
    validate: (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    message: () => "outputSchema must be a JSON Schema object",
  });

export class PromptParams {
  @IsIn(["direct", "steer", "follow_up", "continue"])
  delivery!: Delivery;

  @IsString()
  @MaxBytes(RPC_LIMITS.maxPromptTextBytes)
  @NonEmptyUnlessContinue()
  text!: string;

  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(RPC_LIMITS.maxCompletionIdBytes)
  completionId?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(RPC_LIMITS.maxPromptImages)
  @ImagesWithinBytes()
  @OnlyWithText()
  @NestedParams(() => PromptImageParams, { each: true })
  images?: PromptImageParams[];

  @Optional()
  @IsSchemaObject()
  outputSchema?: Record<string, unknown>;

  /** W3C trace context (version 00): the run's spans join that trace. */
  @Optional()
  @IsString()
  @Matches(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, { message: "traceparent must be a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>)" })
  traceparent?: string;
}
