/**
 * The lines pi-tui's markdown renderer drew for one top-level block, by the block's type, raw text and
 * the type of the block after it (all a block's rendering depends on, for one width and one state of
 * the code highlighter). Shared by the parts of a streaming reply and the whole message drawn at its
 * end, so the final document lays out and highlights again only the blocks that differ.
 */
export class TokenLinesCache {
  private readonly lines = new Map<string, string[]>();
  private width = -1;
  private highlighting = false;

  constructor(private readonly highlighterReady: () => boolean) {}

  lookup(token: { type: string; raw: string }, width: number, next: string | undefined, render: () => string[]): string[] {
    const highlighting = this.highlighterReady();
    if (width !== this.width || highlighting !== this.highlighting) this.lines.clear();
    this.width = width;
    this.highlighting = highlighting;
    const key = `${token.type}\0${next ?? ""}\0${token.raw}`;
    let lines = this.lines.get(key);
    if (!lines) this.lines.set(key, (lines = render()));
    return [...lines];
  }

  clear(): void {
    this.lines.clear();
  }
}
