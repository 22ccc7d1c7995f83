import type { Config } from "jest";

// Loaded by Jest through ts-node in CommonJS mode: keep ts-node options out of tsconfig.json (TS5110).
const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    // isolatedModules: ts-jest only transpiles; `npm run typecheck` does the type checking.
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", useESM: true }],
  },
  moduleNameMapper: {
    "^(\\.{1,2}/.*)\\.js$": "$1",
    // Tests in the repository use the package's entry points from source, never a stale dist/.
    "^zi/family$": "<rootDir>/core/family/family-api.ts",
    "^zi/testing$": "<rootDir>/core/testing/testing-api.ts",
    "^zi/client$": "<rootDir>/client/client-api.ts",
    "^zi/extension$": "<rootDir>/core/extensions/extension-api.ts",
  },
  testTimeout: 30000,
};

export default config;
