// The public face of the coding-tools plugin: what another plugin may use of it (test/architecture/layers.spec.ts).
export { createCodingTools, type CodingToolsOptions } from "./coding-tools.factory.js";
