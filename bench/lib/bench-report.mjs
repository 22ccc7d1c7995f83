// Collects one row per measurement, prints them as a table and writes them as JSON. A row compares
// Zi with a baseline measured in the same run; the target is always relative to that baseline.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { round } from "./stats.mjs";

export class BenchReport {
  rows = [];
  notes = [];
  extra = {};

  /**
   * zi/baseline compared as a ratio. better: "higher" (target = least ratio) or "lower" (target =
   * greatest ratio); target null makes the row informational.
   */
  ratio({ name, unit, zi, baseline, better, target, samples, details }) {
    const ratio = zi / baseline;
    const pass = target === null ? null : better === "higher" ? ratio >= target : ratio <= target;
    const targetText = target === null ? "info" : `${better === "higher" ? "≥" : "≤"} ${target}x`;
    this.rows.push({
      name, unit, zi: round(zi), baseline: round(baseline), ratio: round(ratio), ratioText: `${round(ratio, 2)}x`, target: targetText, pass,
      samples: rounded(samples), details: rounded(details),
    });
  }

  /** zi must stay within baseline + limit (same unit): used for memory growth. */
  delta({ name, unit, zi, baseline, limit, samples, details }) {
    const difference = zi - baseline;
    const sign = difference >= 0 ? "+" : "";
    this.rows.push({
      name, unit, zi: round(zi), baseline: round(baseline), ratio: round(zi / baseline), difference: round(difference),
      ratioText: `${sign}${round(difference, 1)} ${unit}`, target: `≤ +${limit} ${unit}`, pass: difference <= limit,
      samples: rounded(samples), details: rounded(details),
    });
  }

  /**
   * A load-independent count (collections, say) that must stay at or below `limit` whatever the
   * baseline; the baseline, when given, is shown with the ratio as information.
   */
  atMost({ name, unit, zi, baseline = null, limit, samples, details }) {
    const ratio = baseline ? zi / baseline : null;
    this.rows.push({
      name, unit, zi: round(zi), baseline: baseline === null ? null : round(baseline), ratio: ratio === null ? null : round(ratio),
      ratioText: ratio === null ? "-" : `${round(ratio, 2)}x`, target: `≤ ${limit} ${unit}`, pass: zi <= limit,
      samples: rounded(samples), details: rounded(details),
    });
  }

  skip(name, reason) {
    this.rows.push({ name, skipped: reason, pass: null });
  }

  print(out = process.stdout) {
    const header = ["measurement", "zi", "baseline", "ratio", "target", "result"];
    const lines = this.rows.map((row) =>
      row.skipped
        ? [row.name, "-", "-", "-", "-", `skipped: ${row.skipped}`]
        : [row.name, format(row.zi, row.unit), row.baseline === null ? "-" : format(row.baseline, row.unit), row.ratioText, row.target, row.pass === null ? "info" : row.pass ? "pass" : "FAIL"],
    );
    const widths = header.map((title, i) => Math.max(title.length, ...lines.filter((l) => !l[5].startsWith("skipped")).map((l) => l[i].length)));
    const render = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : i < 5 ? cell.padStart(widths[i]) : cell)).join("  ");
    out.write(`${render(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n`);
    for (const cells of lines) out.write(`${render(cells)}\n`);
    for (const note of this.notes) out.write(`note: ${note}\n`);
  }

  write(file, meta) {
    mkdirSync(dirname(file), { recursive: true });
    const failed = this.rows.filter((row) => row.pass === false).map((row) => row.name);
    const body = { ...meta, measurements: this.rows, failedTargets: failed, notes: this.notes, ...this.extra };
    writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  }

  get failedTargets() {
    return this.rows.filter((row) => row.pass === false).length;
  }
}

function format(value, unit) {
  const magnitude = Math.abs(value);
  if (magnitude > 0 && magnitude < 1) return `${Number(value.toPrecision(3))} ${unit}`;
  const digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  return `${value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${unit}`;
}

/** Samples and details with every fractional number rounded, for a readable JSON file. */
function rounded(value) {
  if (typeof value === "number") return Number.isInteger(value) ? value : round(value, 4);
  if (Array.isArray(value)) return value.map(rounded);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rounded(inner)]));
  return value;
}
