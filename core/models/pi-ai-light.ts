/**
 * What `model.list`, `model.select` (the catalogue, a model's thinking levels, pi-ai's well-known key
 * variables) and the offline faux models (event streams, faux messages, the overflow check) need of
 * pi-ai, apart from its providers and its tool-argument validation: pi-ai's index re-exports
 * `utils/validation.js`, which imports typebox's compiler and value modules, and loading them was
 * most of what a first `model.select` added to a first response (docs/performance.md).
 *
 * Here these come from pi-ai's index, which loads all of it; the built `zi` takes each name from the
 * pi-ai module that declares it instead (scripts/pi-ai-light.mjs), the same module the index re-exports,
 * so that the functions, and the state their modules hold, are the index's own.
 */
export {
  createAssistantMessageEventStream,
  fauxAssistantMessage,
  fauxText,
  fauxThinking,
  fauxToolCall,
  getEnvApiKey,
  getModels,
  getProviders,
  getSupportedThinkingLevels,
  isContextOverflow,
} from "@mariozechner/pi-ai";
