import { UsageError } from "./cli-options.js";

/** `zi export JOURNAL [OUT]`: the arguments. */
export interface ExportCommand {
  command: "export";
  journal: string;
  out: string | undefined;
}

export function parseExportCommand(argv: readonly string[]): ExportCommand {
  const args = argv.filter((arg) => arg !== "--");
  if (args.length < 1 || args.length > 2 || args.some((arg) => arg.startsWith("-") && arg !== "-")) throw new UsageError("export needs JOURNAL and at most one OUT file");
  return { command: "export", journal: args[0]!, out: args[1] };
}
