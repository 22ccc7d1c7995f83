// Starts the children a benchmark compares: Zi (each with its own fresh ZI_HOME and an empty project
// directory as cwd, so no user or project settings leak in) and the raw-Node baselines.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RpcChild } from "./rpc-child.mjs";

const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));
export const ECHO_CHILD = join(BENCH_DIR, "echo-child.mjs");
export const REPLAY_CHILD = join(BENCH_DIR, "replay-child.mjs");

export class BenchChildren {
  #count = 0;
  #live = new Set();

  /**
   * ziScript/ziArgs: what `node` runs as Zi (normally dist/bin/zi.js --mode rpc --no-session); node: the
   * Node binary for Zi and the baselines alike (the bench's own by default; bench/lib/second-node.mjs).
   */
  constructor(ziScript, ziArgs, node = process.execPath) {
    this.ziScript = ziScript;
    this.ziArgs = ziArgs;
    this.node = node;
    this.root = mkdtempSync(join(tmpdir(), "zi-bench-"));
    this.project = join(this.root, "project");
    mkdirSync(this.project);
  }

  /** A path inside this run's temp root, for recordings and the like. */
  file(name) {
    return join(this.root, name);
  }

  /** Zi, spawned but not yet ready: await `child.started`. */
  spawnZi(label = "zi", extraEnv = {}) {
    const home = join(this.root, `zi-home-${++this.#count}`);
    mkdirSync(home);
    const env = { ...process.env, ZI_HOME: home };
    // A developer's own settings must not change what is measured.
    delete env.ZI_FAUX_SCRIPT;
    Object.assign(env, extraEnv);
    return this.#spawn(label, this.ziScript, this.ziArgs, env);
  }

  /** naive: one write per response instead of one per input chunk (echo-child.mjs). */
  spawnEcho(label, responseBytes, naive = false) {
    return this.#spawn(label, ECHO_CHILD, naive ? [String(responseBytes), "naive"] : [String(responseBytes)], process.env);
  }

  spawnReplay(label, recordingFile) {
    return this.#spawn(label, REPLAY_CHILD, [recordingFile], process.env);
  }

  zi(label) {
    return BenchChildren.started(this.spawnZi(label));
  }

  echo(label, responseBytes, naive = false) {
    return BenchChildren.started(this.spawnEcho(label, responseBytes, naive));
  }

  /** Waits for `ready`; a child that never gets there is killed rather than left behind. */
  static async started(child) {
    try {
      await child.started;
    } catch (error) {
      child.kill();
      throw error;
    }
    return child;
  }

  /** Kills whatever a failed measurement left running (our own children only) and removes the temp root. */
  dispose() {
    for (const child of this.#live) child.kill();
    this.#live.clear();
    rmSync(this.root, { recursive: true, force: true });
  }

  #spawn(label, script, args, env) {
    const child = new RpcChild(label, script, args, env, this.project, this.node);
    this.#live.add(child);
    void child.exited.then(() => this.#live.delete(child));
    return child;
  }
}
