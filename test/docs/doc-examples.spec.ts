/**
 * Docs that run: every ```ts and ```sh block of README.md and docs/*.md is executed or typechecked
 * here, against the built `dist/` (run `npm run build` first). The fence's info string says how:
 *
 *   ```sh                  run by bash (`set -euo pipefail`) from the repository root, with a fresh
 *                          ZI_HOME (and a TMPDIR removed afterwards); it must exit 0.
 *   ```sh ci-only          not run here: it installs or runs the whole suite (`npm ci`, `npm run
 *                          check`), which CI itself does before this test can run.
 *   ```ts                  typechecked (tsc, NodeNext, the project's compiler options) in a scratch
 *                          checkout (test/support/scratch-checkout.ts), then run there by Node with
 *                          ts-node's ESM loader and a fresh ZI_HOME; it must exit 0.
 *   ```ts typecheck-only   typechecked, not run: it needs a real provider key.
 *   ```ts extension        typechecked, then loaded into the built Zi with `--extension`: Zi must
 *                          report no `extension_error`, list the commands the block registers in
 *                          `command.list`, and exit 0 on close.
 *   ```ts excerpt=PATH     quotes a source file: every line must occur in PATH, in order.
 *   ```text output         right after a block that is run: the stdout it must print. `…` stands for
 *                          any text within a line, a line of only `…` for any number of lines.
 *
 * The scratch checkout is the repository with `core/`, `methods/`, `plugins/` and `bin/` pointing at
 * their build in `dist/`, so blocks run against the build and tsc reads declarations, not sources. A
 * ```ts block whose first line is a path comment (`// methods/greeting/say-hello.method.ts`) is written
 * at that path, so its relative imports resolve as in the repository and later blocks import it; it is
 * a module Zi loads after reflect-metadata, and is run that way. Other ```ts blocks sit at the root,
 * where `zi/client`, `zi/extension` and `zi/testing` resolve through package.json `exports`.
 *
 * Any other marker, a shell or TypeScript block under another language name (```bash, ```typescript),
 * or an unmarked ```sh block that runs `npm ci` or the suite fails the first test: no block is skipped
 * silently. docs/architecture.md repeats these rules for doc writers.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { extractDocBlocks, isExcerptOf, matchesPromisedOutput, type DocBlock } from "../support/doc-blocks.js";
import { ScratchCheckout } from "../support/scratch-checkout.js";

const REPOSITORY = resolve(".");
const DOCS = ["README.md", ...readdirSync("docs").filter((name) => name.endsWith(".md")).sort().map((name) => `docs/${name}`)];
const extractions = DOCS.map((doc) => extractDocBlocks(doc, readFileSync(doc, "utf8")));
const blocks = extractions.flatMap((extraction) => extraction.blocks);
// Hang guards only, never a measure of speed: a block that has not ended by then is killed and fails.
// They are generous because the blocks wait in one queue on a machine that may be busy.
const RUN_TIMEOUT_MS = 120_000;
jest.setTimeout(4 * RUN_TIMEOUT_MS);
const BUILT = { core: "dist/core", methods: "dist/methods", plugins: "dist/plugins", bin: "dist/bin" };
// The machine is shared: at most two child processes (tsc or a block) at a time.
const PARALLEL = 2;

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const tsCompilerOptions = {
  ...(JSON.parse(readFileSync("tsconfig.json", "utf8")) as { compilerOptions: Record<string, unknown> }).compilerOptions,
  types: ["node"],
  // Blocks import zi/* as a user does: the package's exports, i.e. the build (tests map them to source).
  paths: undefined,
  noEmit: true,
  sourceMap: false,
  // Every block is its own module, with or without imports.
  moduleDetection: "force",
};

let scratch: ScratchCheckout;
// Every block's ZI_HOME and TMPDIR (so `mktemp -d` in a block) live here, removed after the run.
let runTemp: string;
const files = new Map<DocBlock, string>();
const runs = new Map<DocBlock, Promise<Ran>>();
let typecheck: Promise<Map<string, string[]>>;

const queue: (() => void)[] = [];
let running = 0;
function limited<T>(task: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolveTask, reject) => {
    const start = () => {
      running++;
      task()
        .then(resolveTask, reject)
        .finally(() => {
          running--;
          queue.shift()?.();
        });
    };
    if (running < PARALLEL) start();
    else queue.push(start);
  });
}

function execute(command: string, args: string[], cwd: string, talk?: (child: ChildProcess) => void): Promise<Ran> {
  const home = mkdtempSync(join(runTemp, "zi-home-"));
  return new Promise((resolveRun) => {
    const env = { ...process.env, ZI_HOME: home, TMPDIR: runTemp };
    const child = spawn(command, args, { cwd, env, stdio: [talk ? "pipe" : "ignore", "pipe", "pipe"] });
    talk?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
  });
}

/** A module of the repository's kind (it has a path) is loaded as Zi loads it: after reflect-metadata. */
function preload(block: DocBlock): string[] {
  return block.path ? ["--import", "reflect-metadata"] : [];
}

function fileName(block: DocBlock): string {
  return block.path ?? `doc-${block.doc.replace(/\W+/g, "-")}-${block.line}.ts`;
}

/** tsc over every ts block at once; its diagnostics, by absolute file name. */
async function typecheckAll(): Promise<Map<string, string[]>> {
  const tsFiles = [...files.values()];
  scratch.write("tsconfig.json", JSON.stringify({ compilerOptions: tsCompilerOptions, files: tsFiles }, null, 2));
  const ran = await limited(() => execute(process.execPath, [join(REPOSITORY, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json", "--pretty", "false"], scratch.root));
  const byFile = new Map<string, string[]>();
  for (const line of ran.stdout.split("\n").filter(Boolean)) {
    const located = /^(.+?)\(\d+,\d+\): /.exec(line);
    const file = located ? resolve(scratch.root, located[1]) : "(tsc)";
    byFile.set(file, [...(byFile.get(file) ?? []), line]);
  }
  if (ran.code !== 0 && byFile.size === 0) byFile.set("(tsc)", [`tsc exited ${ran.code}: ${ran.stderr}`]);
  return byFile;
}

/** Starts the built Zi with the block as its one extension, asks command.list, then disconnects. */
function loadIntoZi(file: string): Promise<Ran> {
  const request = `${JSON.stringify({ version: 1, id: "list", method: "command.list" })}\n`;
  return execute(process.execPath, [join(REPOSITORY, "dist/bin/zi.js"), "--mode", "rpc", "--no-session", "--extension", file], scratch.root, (child) => {
    let seen = "";
    child.stdin!.write(request);
    // Disconnect only once the answer is out: closing stdin earlier would be a disconnect mid-request.
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(`"type":"response","id":"list"`)) child.stdin!.end();
    });
  });
}

function frames(stdout: string): { type: string; id?: string; ok?: boolean; event?: { type: string } }[] {
  return stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

function describeRun(ran: Ran): string {
  return `exit ${ran.code}${ran.signal ? ` (${ran.signal}${ran.signal === "SIGKILL" ? `, killed after ${RUN_TIMEOUT_MS} ms` : ""})` : ""}\n--- stdout\n${ran.stdout}--- stderr\n${ran.stderr}`;
}

beforeAll(() => {
  if (!existsSync("dist/bin/zi.js")) throw new Error("dist/ is missing: run `npm run build` before the doc test");
  runTemp = mkdtempSync(join(tmpdir(), "zi-doc-run-"));
  scratch = new ScratchCheckout(REPOSITORY, { skip: [".git", "tsconfig.json"], replace: BUILT });
  const tsBlocks = blocks.filter((block) => block.lang === "ts" && block.run !== "excerpt");
  for (const block of tsBlocks) files.set(block, scratch.write(fileName(block), block.code));
  typecheck = typecheckAll();
  for (const block of blocks.filter((b) => b.run === "extension")) {
    runs.set(block, typecheck.then(() => limited(() => loadIntoZi(files.get(block)!))));
  }
  for (const block of blocks.filter((b) => b.run === "run")) {
    const ran =
      block.lang === "sh"
        ? limited(() => execute("bash", ["-c", `set -euo pipefail\n${block.code}`], REPOSITORY))
        : // Typecheck first: a block that does not compile fails with tsc's message, not a runtime one.
          typecheck.then(() =>
            limited(() => execute(process.execPath, [...preload(block), "--import", join(REPOSITORY, "scripts/ts-node-esm.mjs"), files.get(block)!], scratch.root)),
          );
    runs.set(block, ran);
  }
});

afterAll(() => {
  scratch?.remove();
  if (runTemp) rmSync(runTemp, { recursive: true, force: true });
});

describe("doc examples", () => {
  it("every ts and sh block in README.md and docs/ says how it is tested", () => {
    expect(extractions.flatMap((extraction) => extraction.problems)).toEqual([]);
    expect(blocks.filter((block) => block.run === "run").length).toBeGreaterThan(5);
  });

  it("the blocks typecheck together with the sources they import", async () => {
    const diagnostics = await typecheck;
    const own = new Set(files.values());
    expect([...diagnostics].filter(([file]) => !own.has(file)).flatMap(([, lines]) => lines)).toEqual([]);
  });

  describe.each(DOCS.filter((doc) => blocks.some((block) => block.doc === doc)))("%s", (doc) => {
    it.each(blocks.filter((block) => block.doc === doc).map((block) => [`line ${block.line}: ${block.lang} ${block.run}`, block] as const))(
      "%s",
      async (_name, block) => {
        if (block.run === "excerpt") {
          const source = join(REPOSITORY, block.excerptOf!);
          expect(existsSync(source)).toBe(true);
          expect(isExcerptOf(block.code, readFileSync(source, "utf8"))).toBe(true);
          return;
        }
        if (block.lang === "ts") {
          const file = files.get(block)!;
          expect({ file: relative(scratch.root, file), diagnostics: (await typecheck).get(file) ?? [] }).toEqual({ file: relative(scratch.root, file), diagnostics: [] });
        }
        if (block.run === "extension") {
          const ran = await runs.get(block)!;
          if (ran.code !== 0) throw new Error(`${block.doc}:${block.line}: Zi failed with it: ${describeRun(ran)}`);
          const all = frames(ran.stdout);
          expect(all.filter((frame) => frame.event?.type === "extension_error").map((frame) => frame.event)).toEqual([]);
          const listed = all.find((frame) => frame.type === "response" && frame.id === "list") as { ok: boolean; result?: { commands: { name: string }[] } };
          expect(listed).toMatchObject({ ok: true });
          // The commands the block registers are the ones Zi lists.
          const registered = [...block.code.matchAll(/registerCommand\("([^"]+)"/g)].map((match) => match[1]);
          expect(listed.result!.commands.map((command) => command.name)).toEqual(expect.arrayContaining(registered));
          return;
        }
        if (block.run !== "run") return; // ci-only, typecheck-only: said so in the fence
        const ran = await runs.get(block)!;
        if (ran.code !== 0) throw new Error(`${block.doc}:${block.line} failed: ${describeRun(ran)}`);
        if (block.output !== undefined && !matchesPromisedOutput(block.output, ran.stdout)) {
          throw new Error(`${block.doc}:${block.line} printed something else than its output block promises:\n--- promised\n${block.output}${describeRun(ran)}`);
        }
      },
    );
  });
});
