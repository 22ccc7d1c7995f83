/** One piece of a parsed glob: a single character test, a run of it (`*`, `**`), an optional group, or braces. */
export type GlobPiece =
  | { kind: "one"; test: (code: number) => boolean }
  | { kind: "many"; test: (code: number) => boolean }
  | { kind: "optional"; pieces: GlobPiece[] }
  | { kind: "either"; options: GlobPiece[][] };

interface State {
  /** A character state consumes one UTF-16 unit that passes `test`; a split state has no test and two exits. */
  test?: (code: number) => boolean;
  out: number;
  out2: number;
}

const ACCEPT = -1;

/**
 * A glob run as a Thompson automaton: every path is matched in time linear in its length times the
 * glob's size, whatever the glob. A regular expression with several `[^/]*` in a row backtracks
 * polynomially (each star one more power of the name's length), so a many-star glob froze Zi.
 */
export class GlobAutomaton {
  private readonly states: State[] = [];
  private readonly start: number;
  /** Generation marks, so a step clears no array. */
  private readonly seen: Uint32Array;
  private generation = 0;

  constructor(pieces: GlobPiece[]) {
    this.start = this.sequence(pieces, ACCEPT);
    this.seen = new Uint32Array(this.states.length);
  }

  matches(text: string): boolean {
    let current: number[] = [];
    let accepted = this.close(this.start, current);
    for (let i = 0; i < text.length; i++) {
      if (current.length === 0) return false;
      const code = text.charCodeAt(i);
      const next: number[] = [];
      this.generation++;
      accepted = false;
      for (const index of current) {
        const state = this.states[index]!;
        if (state.test!(code) && this.add(state.out, next)) accepted = true;
      }
      current = next;
    }
    return accepted;
  }

  /** The states reachable from `index` without consuming input; true when that reaches acceptance. */
  private close(index: number, into: number[]): boolean {
    this.generation++;
    return this.add(index, into);
  }

  private add(first: number, into: number[]): boolean {
    let accepted = false;
    const stack = [first];
    while (stack.length > 0) {
      const index = stack.pop()!;
      if (index === ACCEPT) {
        accepted = true;
        continue;
      }
      if (this.seen[index] === this.generation) continue;
      this.seen[index] = this.generation;
      const state = this.states[index]!;
      if (state.test) into.push(index);
      else stack.push(state.out2, state.out);
    }
    return accepted;
  }

  /** Builds the pieces back to front, each continuing to `next`; returns the entry state. */
  private sequence(pieces: GlobPiece[], next: number): number {
    for (let i = pieces.length - 1; i >= 0; i--) next = this.piece(pieces[i]!, next);
    return next;
  }

  private piece(piece: GlobPiece, next: number): number {
    switch (piece.kind) {
      case "one":
        return this.push({ test: piece.test, out: next, out2: ACCEPT });
      case "many": {
        const split = this.push({ out: ACCEPT, out2: next });
        this.states[split]!.out = this.push({ test: piece.test, out: split, out2: ACCEPT });
        return split;
      }
      case "optional":
        return this.push({ out: this.sequence(piece.pieces, next), out2: next });
      case "either": {
        let entry = this.sequence(piece.options[piece.options.length - 1]!, next);
        for (let i = piece.options.length - 2; i >= 0; i--) entry = this.push({ out: this.sequence(piece.options[i]!, next), out2: entry });
        return entry;
      }
    }
  }

  private push(state: State): number {
    this.states.push(state);
    return this.states.length - 1;
  }
}
