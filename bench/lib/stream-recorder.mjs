// Records every frame a child writes, cut into segments at each point where the client sent input,
// so replay-child.mjs can write the same bytes at the same points of the conversation.
import { writeFileSync } from "node:fs";

export class StreamRecorder {
  #segments = [{ afterLines: 0, lines: [] }];
  #linesSent = 0;

  /**
   * Install as `child.tap` before awaiting `ready`. Keeps the line as the reader's view, without a
   * copy, so recording adds next to nothing to the timed reads (stdout chunks are never reused).
   */
  tap = (line) => {
    this.#segments.at(-1).lines.push(line);
  };

  /** Call right before the client writes `lineCount` request lines. */
  sent(lineCount) {
    this.#linesSent += lineCount;
    this.#segments.push({ afterLines: this.#linesSent, lines: [] });
  }

  /** Call right before the client ends stdin: what comes after is written at end of input. */
  closing() {
    this.#segments.push({ afterLines: null, lines: [] });
  }

  /** The frames (Buffers, LF excluded) of the segment opened by the `index`-th sent() (0 = before any). */
  segment(index) {
    return this.#segments[index].lines;
  }

  get frameCount() {
    return this.#segments.reduce((sum, segment) => sum + segment.lines.length, 0);
  }

  save(file) {
    const segments = this.#segments.map(({ afterLines, lines }) => ({
      afterLines,
      frames: lines.map((line) => `${line.toString("utf8")}\n`).join(""),
    }));
    writeFileSync(file, JSON.stringify({ segments }));
  }
}
