import type { SelectItem } from "@mariozechner/pi-tui";
import type { ExportResult, LeafMove, RewindResult, RewindRestore, SessionSwitch, TreeEntryItem } from "../wire/session-tree-types.js";
import { style } from "./ansi-style.js";
import type { InteractiveSession } from "./interactive-session.js";
import { SessionCallError } from "./session-client.js";
import { TreeSnapshot } from "./tree-snapshot.js";

const REFUSED = "rewind refused, nothing was changed (force restores changed files anyway): ";

const RESTORE_CHOICES: SelectItem[] = [
  { value: "both", label: "conversation and files", description: "the transcript and what write/edit changed" },
  { value: "conversation", label: "conversation only", description: "the files stay as they are" },
  { value: "files", label: "files only", description: "the transcript stays as it is" },
];

const who = (entry: TreeEntryItem): string => (entry.role === "user" ? "you" : "zi");

/**
 * `/tree`, `/fork`, `/rewind` and `/export`: the session-tree methods (docs/sessions.md) behind a list
 * to pick from. A leaf move or a new session redraws the transcript (InteractiveSession follows
 * `leaf_changed` and `session_switched`).
 */
export class TreeCommands {
  constructor(private readonly session: InteractiveSession) {}

  /** Every message of every branch, indented under a branch point; ● marks the current branch. */
  async tree(): Promise<void> {
    const tree = await TreeSnapshot.load(this.session.client);
    const messages = tree.messages();
    const items = messages.map((entry) => ({
      value: entry.id,
      label: `${"  ".repeat(tree.depth(entry.id))}${tree.isOnPath(entry.id) ? "●" : "○"} ${who(entry)}: ${entry.label}`,
    }));
    this.session.say(style.gray("Go to which point? The entry you pick stays and your next prompt follows it; nothing is deleted (Enter picks, Esc cancels)."));
    const current = messages.map((entry) => tree.isOnPath(entry.id)).lastIndexOf(true);
    this.session.pick(items, (entryId) => this.navigate(entryId), current);
  }

  /** pi's /fork: a new session holding the conversation before the chosen prompt; the prompt goes back to the editor. */
  async fork(): Promise<void> {
    const tree = await TreeSnapshot.load(this.session.client);
    const prompts = tree.messages(true).filter((entry) => entry.role === "user");
    const items = prompts.map((entry) => ({ value: entry.id, label: entry.label }));
    this.session.say(style.gray("Fork before which prompt? A new session gets the conversation before it, and the prompt comes back into the editor (Enter picks, Esc cancels)."));
    this.session.pick(items, (entryId) => this.forkBefore(tree.get(entryId)!), items.length - 1);
  }

  /** Back to a point of the current branch: the conversation, the files Zi's tools changed after it, or both. */
  async rewind(): Promise<void> {
    const tree = await TreeSnapshot.load(this.session.client);
    const points = tree.messages(true);
    const items = points.map((entry) => ({ value: entry.id, label: `${who(entry)}: ${entry.label}` }));
    this.session.say(style.gray("Rewind to which point? The entry you pick stays; what came after it is undone (Enter picks, Esc cancels)."));
    this.session.pick(
      items,
      async (entryId) => this.session.pick(RESTORE_CHOICES, (restore) => this.rewindTo(entryId, restore as RewindRestore, false)),
      items.length - 1,
    );
  }

  async export(args: string): Promise<void> {
    const format = args === "" ? "html" : args;
    if (format !== "html" && format !== "jsonl") throw new Error("takes html (the default) or jsonl");
    const result = await this.session.client.call<ExportResult>("session.export", { format });
    this.session.say(`exported (${result.bytes} bytes): ${style.bold(result.path)}`);
  }

  private async navigate(entryId: string): Promise<void> {
    const moved = await this.session.client.call<LeafMove>("session.navigate", { entryId });
    await this.session.transcriptReloaded();
    this.session.say(style.gray(`moved: the model now sees ${moved.messageCount} messages`));
  }

  private async forkBefore(entry: TreeEntryItem): Promise<void> {
    const client = this.session.client;
    const result = await (entry.parentId === null ? client.call<SessionSwitch>("session.new", {}) : client.call<SessionSwitch>("session.fork", { entryId: entry.parentId }));
    await this.session.transcriptReloaded();
    this.session.editor.setText(entry.label);
    this.session.say(style.gray(`forked into a new session${result.path === null ? " (not written to disk)" : `: ${result.path}`}`));
  }

  private async rewindTo(entryId: string, restore: RewindRestore, force: boolean): Promise<void> {
    let result: RewindResult;
    try {
      result = await this.session.client.call<RewindResult>("session.rewind", { entryId, restore, ...(force ? { force: true } : {}) });
    } catch (error) {
      if (!(error instanceof SessionCallError) || !error.message.startsWith(REFUSED)) throw error;
      // Someone else changed a file since Zi's tools did: say which, and let the person choose.
      const report = error.message.slice(REFUSED.length).split("; ").map((line) => `  ${line}`);
      this.session.say(style.yellow(["Rewind refused, nothing was changed:", ...report].join("\n")));
      const choices = [
        { value: "force", label: "restore them anyway", description: "their changes since are lost" },
        { value: "keep", label: "leave everything as it is" },
      ];
      this.session.pick(choices, async (choice) => (choice === "force" ? this.rewindTo(entryId, restore, true) : this.session.say(style.gray("nothing was changed"))));
      return;
    }
    if (restore !== "files") await this.session.transcriptReloaded();
    const lines = result.files.map((file) => `  ${file.action} ${file.path}${file.reason ? ` (${file.reason})` : ""}`);
    const files = restore === "conversation" ? [] : [result.files.length === 0 ? "no file to restore" : "files:", ...(result.files.length === 0 ? [] : lines)];
    this.session.say([`rewound: the model now sees ${result.messageCount} messages`, ...files, style.gray(result.notCovered)].join("\n"));
  }
}
