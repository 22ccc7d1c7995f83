import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";

// bench/run.mjs is a plain script (it runs on import), so its section list is read from its source.
const sectionsOf = (source: string): string[] => {
  const list = /const SECTIONS = \[([^\]]*)\]/.exec(source)?.[1] ?? "";
  return [...list.matchAll(/"([a-z]+)"/g)].map((match) => match[1]!);
};

describe("bench/README.md", () => {
  it("lists exactly the sections --only accepts, in run.mjs's order, on one Options line; every other --only names one of them", () => {
    const sections = sectionsOf(readFileSync("bench/run.mjs", "utf8"));
    expect(sections.length).toBeGreaterThan(10);
    const readme = readFileSync("bench/README.md", "utf8");
    const options = readme.split("\n").filter((line) => line.startsWith("Options:"));
    expect(options).toHaveLength(1);
    expect(/`--only ([a-z,]+)`/.exec(options[0]!)?.[1]?.split(",")).toEqual(sections);
    const named = [...readme.matchAll(/`--only ([a-z,]+)`/g)].flatMap((match) => match[1]!.split(","));
    expect(named.filter((name) => !sections.includes(name))).toEqual([]);
  });
});
