import { Editor, matchesKey } from "@mariozechner/pi-tui";

export interface PromptKeys {
  /** Esc with nothing else to close: interrupt the run. Returns whether it did anything. */
  escape(): boolean;
  /** Ctrl+C: clears the text; on an empty editor twice in a row exits. */
  interruptKey(): void;
  /** Alt+Enter: queue the text as a follow-up. */
  followUp(text: string): void;
  /** Ctrl+D on an empty editor. */
  endOfInput(): void;
  /** Ctrl+T: show or fold thinking. */
  toggleThinking(): void;
}

/** pi-tui's editor (history, multi-line, completion) with the keys of an agent session on top. */
export class PromptEditor extends Editor {
  keys: PromptKeys | undefined;

  override handleInput(data: string): void {
    const keys = this.keys;
    if (keys && !this.isShowingAutocomplete()) {
      if (matchesKey(data, "escape") && keys.escape()) return;
      if (matchesKey(data, "ctrl+c")) {
        if (this.getText() !== "") this.setText("");
        else keys.interruptKey();
        return;
      }
      if (matchesKey(data, "alt+enter")) {
        const text = this.getExpandedText().trim();
        if (text !== "") {
          this.addToHistory(text);
          this.setText("");
          keys.followUp(text);
        }
        return;
      }
      if (matchesKey(data, "ctrl+d") && this.getText() === "") return keys.endOfInput();
      if (matchesKey(data, "ctrl+t")) return keys.toggleThinking();
    }
    super.handleInput(data);
  }
}
