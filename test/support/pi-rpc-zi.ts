import { spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RpcClient } from "@mariozechner/pi-coding-agent";

export const ZI_BIN = resolve("dist/bin/zi.js");
/** The installed pi 0.73.1 package: its dist (types) and docs are the reference the tests read. */
export const PI_PACKAGE = resolve("node_modules/@mariozechner/pi-coding-agent");

export interface PiZiOptions {
  /** Flags after `--mode pi-rpc` (default `--no-session`). */
  args?: string[];
  fauxScript?: object;
  settings?: object;
  /** Written to ZI_HOME/models.json. */
  models?: object;
  home?: string;
}

/**
 * pi 0.73.1's own RpcClient, unchanged, pointed at the built Zi: RpcClient spawns `node <cliPath>
 * --mode rpc <args>`, and `--mode pi-rpc` among the args selects Zi's pi front end (pi's last `--mode`
 * wins, and so does Zi's). Every client and home handed out is removed by `closeAll`.
 */
export class PiRpcZi {
  private static readonly clients: RpcClient[] = [];
  private static readonly homes: string[] = [];

  static home(): string {
    const home = mkdtempSync(join(tmpdir(), "zi-pi-rpc-"));
    PiRpcZi.homes.push(home);
    return home;
  }

  static async start(options: PiZiOptions = {}): Promise<RpcClient> {
    const home = options.home ?? PiRpcZi.home();
    const args = ["--mode", "pi-rpc", ...(options.args ?? ["--no-session"])];
    if (options.settings) writeFileSync(join(home, "settings.json"), JSON.stringify(options.settings));
    if (options.models) writeFileSync(join(home, "models.json"), JSON.stringify(options.models));
    if (options.fauxScript) {
      writeFileSync(join(home, "faux-script.json"), JSON.stringify(options.fauxScript));
      args.push("--faux-script", join(home, "faux-script.json"));
    }
    const client = new RpcClient({ cliPath: ZI_BIN, cwd: home, env: { ZI_HOME: home, HOME: home }, args });
    PiRpcZi.clients.push(client);
    await client.start();
    return client;
  }

  /** What a pi integrator does for the extension UI protocol: writes a line to the agent's stdin itself. */
  static write(client: RpcClient, record: object): void {
    (client as unknown as { process: ChildProcess }).process.stdin!.write(`${JSON.stringify(record)}\n`);
  }

  /** Runs the built zi with pi's command line to its exit: the exit code and stderr. */
  static run(args: string[], input = ""): { status: number | null; stderr: string; stdout: string } {
    const home = PiRpcZi.home();
    const result = spawnSync(process.execPath, [ZI_BIN, ...args], { cwd: home, env: { PATH: process.env.PATH ?? "", ZI_HOME: home, HOME: home }, input, encoding: "utf8", timeout: 20000 });
    return { status: result.status, stderr: result.stderr, stdout: result.stdout };
  }

  static async closeAll(): Promise<void> {
    await Promise.all(PiRpcZi.clients.splice(0).map((client) => client.stop()));
    for (const home of PiRpcZi.homes.splice(0)) rmSync(home, { recursive: true, force: true });
  }

  /** The `type` literals of pi's `RpcCommand` union, read from the installed package's declarations. */
  static commandUnion(): string[] {
    const types = readFileSync(join(PI_PACKAGE, "dist/modes/rpc/rpc-types.d.ts"), "utf8");
    const union = types.slice(types.indexOf("export type RpcCommand ="), types.indexOf("export interface RpcSlashCommand"));
    return [...union.matchAll(/type: "([a-z_]+)";/g)].map((match) => match[1]!);
  }

  /** The `method` literals of pi's `RpcExtensionUIRequest` union. */
  static extensionUiMethods(): string[] {
    const types = readFileSync(join(PI_PACKAGE, "dist/modes/rpc/rpc-types.d.ts"), "utf8");
    const union = types.slice(types.indexOf("export type RpcExtensionUIRequest ="), types.indexOf("export type RpcExtensionUIResponse"));
    return [...union.matchAll(/method: "([A-Za-z_]+)";/g)].map((match) => match[1]!);
  }

  /** The event names of pi's rpc.md "Event Types" table. */
  static documentedEvents(): string[] {
    const doc = readFileSync(join(PI_PACKAGE, "docs/rpc.md"), "utf8");
    const table = doc.slice(doc.indexOf("### Event Types"), doc.indexOf("### agent_start"));
    return [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]!);
  }
}
