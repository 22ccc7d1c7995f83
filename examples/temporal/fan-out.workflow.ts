/**
 * The workflow: fans tasks out to `runZiTask` activities, one Zi process (and one sandbox) each, and
 * collects their results. Heartbeat timeout: a worker that stops heartbeating (crashed, partitioned) has
 * its task retried elsewhere, resuming the journal named in the last heartbeat; that is why ZI_HOME's
 * sessions must be on storage every worker reaches (docs/fleet.md).
 */
import { proxyActivities } from "@temporalio/workflow";
import type * as activities from "./zi-activity.js";
import type { ZiTask, ZiTaskResult } from "./zi-task.js";

const { runZiTask } = proxyActivities<typeof activities>({
  startToCloseTimeout: "2 hours",
  heartbeatTimeout: "2 minutes",
  retry: { maximumAttempts: 3, initialInterval: "10 seconds" },
});

export async function fanOutZiTasks(tasks: ZiTask[]): Promise<ZiTaskResult[]> {
  return Promise.all(tasks.map((task) => runZiTask(task)));
}
