import { Container, Text } from "@mariozechner/pi-tui";
import { codeHighlighter, markdownTheme, style } from "./ansi-style.js";
import { CachedMarkdown } from "./cached-markdown.js";
import { textOf } from "./message-text.js";
import { TokenLinesCache } from "./token-lines-cache.js";

/** Blank lines before a reply's first text are not drawn (pi trims a reply's text too). */
const LEADING_BLANK_LINES = /^(?:[ \t]*\n)+/;

/**
 * An assistant reply as it streams: its text as markdown, and its thinking folded to one line unless
 * expanded. While it streams, the text is cut at paragraph breaks outside code fences: what is before
 * the last break is parsed once into a markdown part of its own, and only the paragraph still growing
 * is parsed again on each frame, so the cost of a delta does not grow with the answer. Each part is
 * told the type of the block after it, so it draws its last block as the whole message does.
 * At message_end the whole message is lexed once (a probe that lays nothing out): when its blocks are
 * the parts' blocks, the parts are the whole message's rendering and stay on screen as they are;
 * otherwise (a cut that split a block, a link reference, a final text unlike the streamed one) the
 * message is drawn again as one document, its blocks that a part already drew taken from the parts'
 * TokenLinesCache. pi-tui redraws only the lines that changed.
 */
export class AssistantView extends Container {
  private readonly thinkingLine = new Text("", 1, 0);
  private readonly text = new Container();
  private readonly blockLines = new TokenLinesCache(() => codeHighlighter.ready);
  private live = this.markdown("");
  private settledLength = 0;
  /** The text the parts and the live paragraph were last given. */
  private shown = "";
  /** The final text, to be checked against the parts at the next layout (message_end). */
  private verify: string | undefined;
  /** The final text once checked (or drawn as one document): a later refresh (Ctrl+T) leaves it as it is. */
  private drawnFinal: string | undefined;
  private ended = false;
  private dirty = false;
  private highlighting = codeHighlighter.ready;
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
    const parts = this.text.children as CachedMarkdown[];
    // Parts drawn before highlight.js had loaded are drawn again, in colour.
    if (this.highlighting !== codeHighlighter.ready) {
      this.highlighting = codeHighlighter.ready;
      for (const part of parts) part.invalidate();
    }
    // Back to front: a part's last block is drawn knowing the type of the block after it.
    for (let index = parts.length - 1; index >= 0; index--) {
      parts[index]!.render(width);
      if (index > 0) parts[index - 1]!.follow(parts[index]!.firstType);
    }
    if (this.verify !== undefined) {
      const text = this.verify;
      this.verify = undefined;
      this.drawnFinal = text;
      if (!this.partsAreWhole(text, width)) {
        this.whole(text);
        return this.render(width);
      }
    }
    const lines = super.render(width);
    if (this.ended) {
      for (const part of parts) part.cache = undefined;
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
    this.ended = true;
    this.refresh();
  }

  refresh(): void {
    this.dirty = false;
    const of = (kind: "text" | "thinking") => [...this.blocks.entries()].sort(([a], [b]) => a - b).filter(([, block]) => block.kind === kind).map(([, block]) => block.text);
    const thinking = of("thinking").join("\n").trim();
    if (thinking === "") this.thinkingLine.setText("");
    else if (this.expanded()) this.thinkingLine.setText(style.gray(style.italic(thinking)));
    else this.thinkingLine.setText(style.gray(`▸ thinking (${thinking.split(/\s+/).length} words; Ctrl+T shows it)`));
    const text = of("text").join("\n\n").replace(LEADING_BLANK_LINES, "");
    if (this.ended && text === this.drawnFinal) return;
    // The final text must begin with what the parts hold, or the message is drawn as one document.
    if (this.ended && !(text.length >= this.settledLength && text.startsWith(this.shown.slice(0, this.settledLength)))) this.whole("");
    // Once ended no part is cut any more: the final layout is checked against the parts as they are.
    if (!this.ended) this.settle(text);
    this.shown = text;
    this.live.setText(text.slice(this.settledLength));
    if (this.ended) this.verify = text;
  }

  private markdown(text: string, layout = true): CachedMarkdown {
    return new CachedMarkdown(text, 1, 0, markdownTheme, this.blockLines, layout);
  }

  /** Whether the parts on screen, laid out at `width`, are the rendering of `text` as one document. */
  private partsAreWhole(text: string, width: number): boolean {
    // One part (a replayed message, a short answer): it is the whole document already.
    if (this.text.children.length === 1 && this.settledLength === 0) return true;
    if (CachedMarkdown.definesLinks(text)) return false;
    const probe = this.markdown(text, false);
    probe.render(width);
    const whole = probe.blocks;
    const parts = (this.text.children as CachedMarkdown[]).flatMap((part) => part.blocks);
    return whole.length === parts.length && whole.every((block, index) => block.type === parts[index]!.type && block.raw === parts[index]!.raw && block.next === parts[index]!.next);
  }

  /** One document again (all of `text` in the live part, nothing settled). */
  private whole(text: string): void {
    this.text.clear();
    this.live = this.markdown(text);
    this.text.addChild(this.live);
    this.settledLength = 0;
    this.shown = text;
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
