import { describe, expect, it } from "@jest/globals";
import { parseCliOptions, type ZiOptions } from "../../../core/cli/cli-options.js";
import { PiUsageError } from "../../../core/pi-rpc/pi-rpc-options.js";

const parse = (...argv: string[]) => parseCliOptions(argv, {}) as ZiOptions;

describe("pi's command line (zi --mode pi-rpc)", () => {
  it("takes RpcClient's argv: --mode rpc first, --mode pi-rpc later, pi's flags", () => {
    const options = parse("--mode", "rpc", "--provider", "faux", "--model", "echo:low", "--mode", "pi-rpc", "--no-session", "--thinking", "high", "--tools", "read, ls", "--models", "a,b", "-e", "x.mjs");
    expect(options).toMatchObject({ mode: "pi-rpc", noSession: true, extensions: ["x.mjs"], pi: { provider: "faux", model: "echo:low", thinking: "high", tools: ["read", "ls"], models: ["a", "b"], warnings: [] } });
  });

  it("refuses as pi does: unknown long flags together (with their values), an unknown short flag, positional words", () => {
    expect(() => parse("--mode=pi-rpc", "--foo", "bar", "--baz=1")).toThrow(new PiUsageError("Unknown options: --foo, --baz"));
    expect(() => parse("--mode", "pi-rpc", "-q")).toThrow(new PiUsageError("Unknown option: -q"));
    expect(() => parse("--mode", "pi-rpc", "hello")).toThrow(PiUsageError);
    expect(() => parse("--mode", "pi-rpc", "--mode", "json")).toThrow(PiUsageError);
  });

  it("warns where pi warns, and for flags with nothing to change in Zi; refuses those it cannot honour, with the reason", () => {
    expect(parse("--mode", "pi-rpc", "--thinking", "loud", "--offline").pi!.warnings).toEqual(['Invalid thinking level "loud". Valid values: off, minimal, low, medium, high, xhigh', "--offline has no effect in zi --mode pi-rpc"]);
    expect(() => parse("--mode", "pi-rpc", "--system-prompt", "x")).toThrow(/^--system-prompt is not supported by zi --mode pi-rpc: .+/);
    expect(() => parse("--mode", "pi-rpc", "--no-session", "--session", "f.jsonl")).toThrow(PiUsageError);
  });

  it("--no-tools is an empty tool list; --session-dir and --append-system-prompt reach Zi's options", () => {
    const options = parse("--mode", "pi-rpc", "--no-tools", "--session-dir", "/tmp/s", "--append-system-prompt", "be brief", "--append-system-prompt", "and kind");
    expect(options).toMatchObject({ sessionDir: "/tmp/s", appendSystemPrompt: ["be brief", "and kind"], pi: { tools: [] } });
  });
});
