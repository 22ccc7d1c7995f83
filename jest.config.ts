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
  },
  testTimeout: 30000,
};

export default config;
