/**
 * A Temporal worker for the fleet: `node --import ./scripts/ts-node-esm.mjs examples/temporal/worker.ts`
 * with TEMPORAL_ADDRESS (default localhost:7233). Run one per sandbox (docs/fleet.md).
 */
import { fileURLToPath } from "node:url";
import { NativeConnection, Worker } from "@temporalio/worker";
import * as activities from "./zi-activity.js";

export async function runWorker(taskQueue = "zi-tasks"): Promise<void> {
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? "localhost:7233" });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowsPath: fileURLToPath(new URL("./fan-out.workflow.ts", import.meta.url)),
    activities,
    // One Zi session at a time per sandbox.
    maxConcurrentActivityTaskExecutions: 1,
  });
  await worker.run();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runWorker();
