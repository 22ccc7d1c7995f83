import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A small project tree for grep and find: sources, a test, and trees both tools must skip (.git, and node_modules by .gitignore). */
export function writeSearchTree(dir: string): void {
  const files = new Map<string, string | Buffer>([
    [".gitignore", "node_modules/\n"],
    ["src/main.ts", "export function main() {\n  return helper();\n}\n"],
    ["src/util/helper.ts", "export function helper() {\r\n  return 42; // TODO tidy\r\n}\r\n"],
    ["src/view.tsx", "const View = () => null; // todo later\n"],
    ["test/main.spec.ts", "import { main } from '../src/main';\n"],
    ["README.md", "# Demo\nTODO: write docs\n"],
    ["node_modules/dep/index.ts", "export function main() {}\n"],
    [".git/config", "function main\n"],
    ["image.bin", Buffer.from([0x00, 0x66, 0x75, 0x6e, 0x63, 0x74, 0x69, 0x6f, 0x6e])],
  ]);
  for (const [path, content] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}
