// The search benchmark's tree: a git repository of real source text (Zi's own TypeScript sources,
// reused round-robin) where most files are ignored, as in a project with installed dependencies and
// build output. Built once per version under the temp directory and reused by later runs.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const VERSION = 1;
/** Files per top-level tree; most are ignored (node_modules, build, a nested generated/). */
export const LAYOUT = {
  "src": 1500, // tracked
  "vendor/lib": 1000, // tracked: a vendored copy of dependencies
  "node_modules": 14_000, // ignored by the root .gitignore
  "build": 4000, // ignored by the root .gitignore
  "packages/app/generated": 500, // ignored by a nested .gitignore
};

function sourceTexts(root) {
  const texts = [];
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith(".ts")) texts.push(readFileSync(path, "utf8"));
    }
  };
  for (const dir of ["core", "methods", "plugins"]) visit(join(root, dir));
  return texts;
}

/** The tree's directory, built if missing; `files` is the total number of files in it. */
export function searchTree(projectRoot) {
  const dir = join(tmpdir(), `zi-bench-search-tree-v${VERSION}`);
  const files = Object.values(LAYOUT).reduce((sum, count) => sum + count, 0);
  if (existsSync(join(dir, ".complete"))) return { dir, files };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const texts = sourceTexts(projectRoot);
  let next = 0;
  for (const [top, count] of Object.entries(LAYOUT)) {
    for (let i = 0; i < count; i++) {
      // 50 files per directory, two levels deep, as packages and source trees are laid out.
      const sub = join(dir, top, `m${Math.floor(i / 500)}`, `d${Math.floor(i / 50) % 10}`);
      if (i % 50 === 0) mkdirSync(sub, { recursive: true });
      const extension = i % 10 === 0 ? "md" : i % 3 === 0 ? "js" : "ts";
      writeFileSync(join(sub, `file${i}.${extension}`), texts[next++ % texts.length]);
    }
  }
  writeFileSync(join(dir, ".gitignore"), "node_modules/\nbuild/\n*.log\n");
  writeFileSync(join(dir, "packages/app/.gitignore"), "generated/\n");
  execFileSync("git", ["init", "-q"], { cwd: dir });
  writeFileSync(join(dir, ".complete"), "");
  return { dir, files };
}
