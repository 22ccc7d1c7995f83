import { Container, Markdown, Text } from "@mariozechner/pi-tui";
import { markdownTheme, style } from "./ansi-style.js";
import { textOf } from "./message-text.js";

/**
 * An assistant reply as it streams: its text as markdown, re-rendered per delta (pi-tui redraws only
 * the lines that changed), and its thinking folded to one line unless expanded.
 */
export class AssistantView extends Container {
  private readonly thinkingLine = new Text("", 1, 0);
  private readonly markdown = new Markdown("", 1, 0, markdownTheme);
  private readonly error = new Text("", 1, 0);
  private readonly blocks = new Map<number, { kind: "text" | "thinking"; text: string }>();

  constructor(private expanded: () => boolean) {
    super();
    this.addChild(this.thinkingLine);
    this.addChild(this.markdown);
    this.addChild(this.error);
  }

  delta(kind: string, index: number, delta: string): void {
    if (kind !== "text_delta" && kind !== "thinking_delta") return;
    const block = this.blocks.get(index) ?? { kind: kind === "text_delta" ? "text" : "thinking", text: "" };
    block.text += delta;
    this.blocks.set(index, block);
    this.refresh();
  }

  /** The whole message (message_end): authoritative over the deltas. */
  end(message: { content?: unknown; stopReason?: string; errorMessage?: string }): void {
    this.blocks.clear();
    const content = Array.isArray(message.content) ? message.content : [];
    content.forEach((block: { type?: string; text?: string; thinking?: string }, index: number) => {
      if (block.type === "text") this.blocks.set(index, { kind: "text", text: block.text ?? "" });
      if (block.type === "thinking") this.blocks.set(index, { kind: "thinking", text: block.thinking ?? "" });
    });
    if (typeof message.content === "string") this.blocks.set(0, { kind: "text", text: textOf(message.content) });
    if (message.stopReason === "error") this.error.setText(style.red(`error: ${message.errorMessage ?? "the model call failed"}`));
    if (message.stopReason === "aborted") this.error.setText(style.yellow("interrupted"));
    this.refresh();
  }

  refresh(): void {
    const of = (kind: "text" | "thinking") => [...this.blocks.entries()].sort(([a], [b]) => a - b).filter(([, block]) => block.kind === kind).map(([, block]) => block.text);
    const thinking = of("thinking").join("\n").trim();
    if (thinking === "") this.thinkingLine.setText("");
    else if (this.expanded()) this.thinkingLine.setText(style.gray(style.italic(thinking)));
    else this.thinkingLine.setText(style.gray(`▸ thinking (${thinking.split(/\s+/).length} words; Ctrl+T shows it)`));
    this.markdown.setText(of("text").join("\n\n"));
  }
}
