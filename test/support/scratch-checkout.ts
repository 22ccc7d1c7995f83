import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";

/**
 * A throwaway view of the repository made of symlinks, into which files can be written at any path
 * without touching the real tree: a directory on the way to a new file is turned from a symlink into a
 * real directory of symlinks. Relative imports of a written file resolve as they would in the
 * repository, and `package.json` (with its `exports`) lets it import the package by name (`zi/client`).
 */
export class ScratchCheckout {
  readonly root = mkdtempSync(join(tmpdir(), "zi-scratch-checkout-"));

  /**
   * `replace` points top-level entries elsewhere in the repository (`{ core: "dist/core" }`: imports of
   * the sources get the build); `skip` leaves entries out.
   */
  constructor(
    readonly repository: string,
    options: { skip?: readonly string[]; replace?: Readonly<Record<string, string>> } = {},
  ) {
    const skip = options.skip ?? [".git"];
    for (const entry of readdirSync(repository)) {
      if (skip.includes(entry)) continue;
      symlinkSync(join(repository, options.replace?.[entry] ?? entry), join(this.root, entry));
    }
  }

  /** Writes `content` at `path` (relative to the root) and returns the absolute file name. */
  write(path: string, content: string): string {
    const file = join(this.root, path);
    if (relative(this.root, file).startsWith("..")) throw new Error(`${path} is outside the scratch checkout`);
    this.materialize(dirname(file));
    if (this.isLink(file)) unlinkSync(file);
    writeFileSync(file, content);
    return file;
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  private materialize(dir: string): void {
    let current = this.root;
    for (const part of relative(this.root, dir).split(sep).filter(Boolean)) {
      current = join(current, part);
      if (this.isLink(current)) {
        const target = realpathSync(current);
        unlinkSync(current);
        mkdirSync(current);
        for (const child of readdirSync(target)) symlinkSync(join(target, child), join(current, child));
      } else mkdirSync(current, { recursive: true });
    }
  }

  private isLink(path: string): boolean {
    try {
      return lstatSync(path).isSymbolicLink();
    } catch {
      return false;
    }
  }
}
