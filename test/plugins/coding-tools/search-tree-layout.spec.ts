import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SearchTreeLayout } from "../../../plugins/coding-tools/search-tree-layout.js";
import { makeTempDir } from "../../support/tool-test-kit.js";

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((cleanup) => cleanup()));

/** A tree with `count` files under each directory named; other entries are written as given. */
function tree(directories: Record<string, number>, files: Record<string, string> = {}): string {
  const { dir, cleanup } = makeTempDir("zi-layout-");
  cleanups.push(cleanup);
  for (const [name, count] of Object.entries(directories)) {
    mkdirSync(join(dir, name), { recursive: true });
    for (let i = 0; i < count; i++) writeFileSync(join(dir, name, `f${i}.txt`), "x\n");
  }
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

async function layoutOf(root: string): Promise<SearchTreeLayout> {
  await SearchTreeLayout.weigh(root);
  const layout = SearchTreeLayout.known(root);
  if (!layout) throw new Error("no layout was kept");
  return layout;
}

const excluded = (layout: SearchTreeLayout, count: number, minFiles = 0) => layout.split(count, minFiles)?.map((part) => part.excluded);

describe("SearchTreeLayout", () => {
  it("cuts the tree in path order where the weights balance, each part leaving out the others' entries", async () => {
    const layout = await layoutOf(tree({ a: 100, b: 100, c: 200 }));
    expect(excluded(layout, 2)).toEqual([["c"], ["a", "b"]]);
  });

  it("does not weigh what the ignore files leave out, nested ones included", async () => {
    const root = tree({ a: 100, "node_modules/x": 1000, "p/gen": 1000, "p/src": 10, z: 110 }, { ".gitignore": "node_modules/\n" });
    writeFileSync(join(root, "p/.gitignore"), "gen/\n");
    const layout = await layoutOf(root);
    expect(excluded(layout, 2)).toEqual([["z"], [".gitignore", "a", "p"]]);
  });

  it("opens a heavy directory so that a tree kept under one directory splits too, and names a directory whole when it can", async () => {
    const layout = await layoutOf(tree({ "src/x": 150, "src/y": 150, docs: 2 }));
    expect(excluded(layout, 2)).toEqual([["src/y"], ["docs", "src/x"]]);
  });

  it("tells each path's part by its place in the order: every path falls in exactly one", async () => {
    const layout = await layoutOf(tree({ a: 100, b: 100, c: 200 }));
    const parts = layout.split(2, 0)!;
    for (const path of ["a", "a/f1.txt", "b/new.txt", "b.txt", "bz/q", "c", "c/f0.txt", "d/new"]) {
      expect([path, parts.filter((part) => part.owns(path)).length]).toEqual([path, 1]);
    }
    expect(parts.map((part) => part.owns("b/x"))).toEqual([true, false]);
    expect(parts.map((part) => part.owns("c/x"))).toEqual([false, true]);
  });

  it("keeps a tree whole when it is small, when no cut would balance it, or for a single part", async () => {
    const small = await layoutOf(tree({ a: 10, b: 10 }));
    expect(excluded(small, 2, 400)).toBeUndefined();
    expect(excluded(small, 1)).toBeUndefined();
    const flat = await layoutOf(tree({ a: 300 }, { "z.txt": "x\n" }));
    expect(excluded(flat, 2)).toBeUndefined();
  });

  it("has no layout for a root reached through a symbolic link, or with a name that is not UTF-8", async () => {
    const target = tree({ a: 100, b: 100 });
    const { dir, cleanup } = makeTempDir("zi-layout-link-");
    cleanups.push(cleanup);
    symlinkSync(target, join(dir, "link"));
    await SearchTreeLayout.weigh(join(dir, "link"));
    expect(SearchTreeLayout.known(join(dir, "link"))).toBeUndefined();
    const odd = tree({ a: 100, b: 100 });
    writeFileSync(Buffer.concat([Buffer.from(`${odd}/`), Buffer.from([0x66, 0xff, 0x66])]), "x\n");
    await SearchTreeLayout.weigh(odd);
    expect(SearchTreeLayout.known(odd)).toBeUndefined();
    expect(await layoutOf(target)).toBeDefined();
  });

  it("is weighed in the background: unknown at first, known once weighed", async () => {
    const root = tree({ a: 100, b: 100 });
    expect(SearchTreeLayout.known(root)).toBeUndefined(); // starts the weighing
    await SearchTreeLayout.weigh(root); // joins it
    expect(excluded(SearchTreeLayout.known(root)!, 2)).toEqual([["b"], ["a"]]);
  });
});
