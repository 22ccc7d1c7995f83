import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SkillCatalog } from "../../../core/context/skill-catalog.js";
import { SkillParser } from "../../../core/context/skill-parser.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "zi-skills-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function skill(root: string, folder: string, text: string): string {
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, folder, "SKILL.md"), text);
  return join(root, folder, "SKILL.md");
}

const front = (name: string, description: string, body = "BODY") => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe("SkillParser (the Agent Skills front matter)", () => {
  it("takes name and description, folds the description onto one line, ignores other keys", () => {
    const text = "---\nname: pdf-tools\ndescription: |\n  Fill PDF forms\n  and extract text\nlicense: MIT\nallowed-tools: read\n---\nbody";
    expect(SkillParser.parse(text, "pdf-tools")).toEqual({ name: "pdf-tools", description: "Fill PDF forms and extract text" });
  });

  it.each([
    ["no front matter", "just text", "pdf", /must start with YAML front matter/],
    ["invalid YAML", "---\nname: [\n---\n", "pdf", /invalid YAML/],
    ["a list, not a mapping", "---\n- a\n---\n", "pdf", /mapping/],
    ["no name", "---\ndescription: d\n---\n", "pdf", /"name": required/],
    ["uppercase name", front("PDF", "d"), "PDF", /lowercase/],
    ["double hyphen", front("a--b", "d"), "a--b", /lowercase/],
    ["name too long", front("a".repeat(65), "d"), "a".repeat(65), /1-64/],
    ["name not the folder's", front("pdf", "d"), "other", /must match its folder's name "other"/],
    ["no description", "---\nname: pdf\n---\n", "pdf", /"description": required/],
    ["description too long", front("pdf", "d".repeat(1025)), "pdf", /longer than 1024/],
    // The YAML composer recurses: 20,000 nested flow sequences overflowed the stack ("Maximum call stack size exceeded").
    ["front matter nested 20,000 deep", `---\nname: pdf\ndescription: d\nmeta: ${"[".repeat(20000)}${"]".repeat(20000)}\n---\n`, "pdf", /nests deeper than 64 levels/],
    ["block mappings nested 5,000 deep", `---\nname: pdf\ndescription: d\n${Array.from({ length: 5000 }, (_, i) => `${" ".repeat(i)}k:`).join("\n")} v\n---\n`, "pdf", /nests deeper than 64 levels/],
  ])("refuses %s", (_label, text, folder, problem) => {
    expect(() => SkillParser.parse(text, folder)).toThrow(problem);
  });
});

describe("SkillCatalog", () => {
  it("lists name, description and SKILL.md path, never the body; a broken skill is one problem and hides no other", async () => {
    const global = join(dir, "global");
    const good = skill(global, "alpha", front("alpha", "Does alpha things", "SECRET BODY"));
    skill(global, "beta", "no front matter");
    mkdirSync(join(global, "empty"));
    mkdirSync(join(global, "gamma"));
    execFileSync("mkfifo", [join(global, "gamma", "SKILL.md")]);
    writeFileSync(join(global, "README.md"), "not a skill");
    mkdirSync(join(global, ".hidden"));
    const omega = skill(global, "omega", front("omega", "Last"));
    const result = await SkillCatalog.load([global]);
    expect(result.skills).toEqual([
      { name: "alpha", description: "Does alpha things", path: good },
      { name: "omega", description: "Last", path: omega },
    ]);
    expect(JSON.stringify(result)).not.toContain("SECRET BODY");
    expect(result.problems).toEqual([
      { source: join(global, "beta", "SKILL.md"), error: "SKILL.md must start with YAML front matter between --- lines" },
      { source: join(global, "empty"), error: "has no SKILL.md" },
      { source: join(global, "gamma", "SKILL.md"), error: "is a FIFO, not a regular file" },
    ]);
  });

  it("keeps the first directory's skill of a name and records the later one as shadowed", async () => {
    const first = join(dir, "home-skills");
    const second = join(dir, "project-skills");
    const kept = skill(first, "deploy", front("deploy", "Ours"));
    const shadowed = skill(second, "deploy", front("deploy", "Theirs"));
    const result = await SkillCatalog.load([first, join(dir, "missing"), second]);
    expect(result.skills).toEqual([{ name: "deploy", description: "Ours", path: kept }]);
    expect(result.shadowed).toEqual([{ name: "deploy", path: shadowed, shadowedBy: kept }]);
    expect(result.problems).toEqual([]);
  });

  it("lists at most maxSkills and names the rest", async () => {
    const root = join(dir, "many");
    for (const name of ["a", "b", "c"]) skill(root, name, front(name, name));
    const result = await SkillCatalog.load([root], { maxSkills: 2, maxSkillFileBytes: 4096, maxSkillNameChars: 64, maxSkillDescriptionChars: 1024 });
    expect(result.skills.map((entry) => entry.name)).toEqual(["a", "b"]);
    expect(result.omitted).toEqual(["c"]);
  });

  it("reports a skills path that is a file", async () => {
    writeFileSync(join(dir, "skills"), "");
    expect((await SkillCatalog.load([join(dir, "skills")])).problems).toEqual([{ source: join(dir, "skills"), error: "is not a directory" }]);
  });
});
