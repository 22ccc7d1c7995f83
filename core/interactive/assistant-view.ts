import { Container, Text } from "@mariozechner/pi-tui";
import { codeHighlighter, markdownTheme, style } from "./ansi-style.js";
import { CachedMarkdown } from "./cached-markdown.js";
import { textOf } from "./message-text.js";
import { TokenLinesCache } from "./token-lines-cache.js";

/**
 * An assistant reply as it streams: its text as markdown, and its thinking folded to one line unless
 * expanded. While it streams, the text is cut at paragraph breaks outside code fences: what is before
 * the last break is parsed once into a markdown part of its own, and only the paragraph still growing
 * is parsed again on each frame, so the cost of a delta does not grow with the answer. The whole
 * message (message_end) is then rendered as one document; its blocks that a part already drew (same
 * text, same block after it) are taken from the parts' TokenLinesCache instead of being laid out and
 * highlighted again. pi-tui redraws only the lines that changed.
 */
export class AssistantView extends Container {
  private readonly thinkingLine = new Text("", 1, 0);
  private readonly text = new Container();
  private readonly blockLines = new TokenLinesCache(() => codeHighlighter.ready);
  private live = this.markdown("");
  private settledLength = 0;
  /** The whole message is drawn once from the cache; afterwards the cache is let go. */
  private ended = false;
  private dirty = false;
  private readonly error = new Text("", 1, 0);
  private readonly blocks = new Map<number, { kind: "text" | "thinking"; text: string }>();

  constructor(private expanded: () => boolean) {
    super();
    this.addChild(this.thinkingLine);
    this.addChild(this.text);
    this.text.addChild(this.live);
    this.addChild(this.error);
  }

  delta(kind: string, index: number, delta: string): void {
    if (kind !== "text_delta" && kind !== "thinking_delta") return;
    const block = this.blocks.get(index) ?? { kind: kind === "text_delta" ? "text" : "thinking", text: "" };
    block.text += delta;
    this.blocks.set(index, block);
    // Laid out when the next frame is drawn: many deltas arrive between two frames.
    this.dirty = true;
  }

  override render(width: number): string[] {
    if (this.dirty) this.refresh();
    const lines = super.render(width);
    if (this.ended) {
      this.live.cache = undefined;
      this.blockLines.clear();
    }
    return lines;
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
    // One document again, parsed once: the final rendering does not depend on where the cuts fell.
    this.text.clear();
    this.live = this.markdown("");
    this.text.addChild(this.live);
    this.settledLength = 0;
    this.ended = true;
    this.refresh(true);
  }

  refresh(whole = this.ended): void {
    this.dirty = false;
    const of = (kind: "text" | "thinking") => [...this.blocks.entries()].sort(([a], [b]) => a - b).filter(([, block]) => block.kind === kind).map(([, block]) => block.text);
    const thinking = of("thinking").join("\n").trim();
    if (thinking === "") this.thinkingLine.setText("");
    else if (this.expanded()) this.thinkingLine.setText(style.gray(style.italic(thinking)));
    else this.thinkingLine.setText(style.gray(`▸ thinking (${thinking.split(/\s+/).length} words; Ctrl+T shows it)`));
    const text = of("text").join("\n\n");
    if (!whole) this.settle(text);
    this.live.setText(text.slice(this.settledLength));
  }

  private markdown(text: string): CachedMarkdown {
    return new CachedMarkdown(text, 1, 0, markdownTheme, this.blockLines);
  }

  /**
   * Moves the finished paragraphs (before the last blank line outside a code fence) into a part of
   * their own. A part keeps its blank lines (a blank-line block of its own, as in the whole document),
   * so its blocks are the whole message's blocks and the final rendering can reuse them.
   */
  private settle(text: string): void {
    let cut = -1;
    let fences = 0;
    for (let at = this.settledLength; ; ) {
      const fence = text.indexOf("```", at);
      const gap = text.indexOf("\n\n", at);
      if (gap < 0) break;
      if (fence >= 0 && fence < gap) {
        fences++;
        at = fence + 3;
        continue;
      }
      let end = gap + 2;
      while (text[end] === "\n") end++;
      if (fences % 2 === 0) cut = end;
      at = end;
    }
    if (cut <= this.settledLength) return;
    const part = text.slice(this.settledLength, cut);
    this.settledLength = cut;
    if (part.trim() === "") return;
    this.text.removeChild(this.live);
    this.text.addChild(this.markdown(part));
    this.text.addChild(this.live);
  }
}
