// 6. A client that stops reading during a long reply of one-token deltas (faux/scripted, unpaced):
// Zi's peak RSS while nothing is read, against its own idle RSS in the same run. The target is the
// issue-9 bound, idle + 64 MiB + 3x the reply's text, expressed as a ratio to idle.
import { runStalledReader } from "./stalled-reader.mjs";
import { MiB } from "./stats.mjs";

export async function measureStalledReader(report, { textBytes, pauseMs, ziScript }) {
  const run = await runStalledReader({ textBytes, pauseMs, ziScript, nodeArgs: ["--max-old-space-size=160"] });
  if (run.exit.code !== 0) throw new Error(`zi (stalled reader) exited ${JSON.stringify(run.exit)}: ${run.stderr}`);
  if (!run.rebuiltMatches) throw new Error("zi (stalled reader): the concatenated deltas differ from the reply text");
  report.ratio({
    name: `RSS, reader stalled ${pauseMs / 1000} s in a ${textBytes / MiB} MiB reply`,
    unit: "MiB",
    zi: run.peakMiB,
    baseline: run.idleMiB,
    better: "lower",
    target: Math.round(((run.idleMiB + 64 + (3 * textBytes) / MiB) / run.idleMiB) * 100) / 100,
    samples: { zi: [run.peakMiB], baseline: [run.idleMiB] },
    details: { textBytes, deltaFrames: run.deltaFrames, maxOldSpaceMiB: 160 },
  });
}
