/**
 * A Temporal activity that runs one Zi session to idle (docs/fleet.md):
 * - heartbeats on Zi's events, with the journal's path in the details;
 * - honours cancellation: Temporal's cancellation interrupts the session (`session.interrupt`);
 * - enforces the task's budget with `session.set_budget` (the run ends with `budget_exceeded`);
 * - on a retry, resumes the journal the last heartbeat named (`--session FILE`) and continues the task.
 *
 * A run that fails (provider error) throws a retryable ApplicationFailure; a budget or schema end is a
 * result, not a failure (retrying would spend the same again).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ApplicationFailure, Context } from "@temporalio/activity";
import { ZiClient } from "zi/client";
import type { ZiHeartbeat, ZiTask, ZiTaskResult } from "./zi-task.js";

const CONTINUE = "Continue the task where you left off; the conversation above is your earlier attempt.";

export async function runZiTask(task: ZiTask): Promise<ZiTaskResult> {
  const context = Context.current();
  const previous = context.info.heartbeatDetails as ZiHeartbeat | undefined;
  const resumeArgs = previous?.sessionFile ? ["--session", previous.sessionFile] : [];
  const zi = await ZiClient.start({
    ...(task.ziPath !== undefined && { ziPath: task.ziPath }),
    ziArgs: [...resumeArgs, ...(task.ziArgs ?? [])],
    cwd: task.cwd,
    env: { ...process.env, ZI_HOME: task.ziHome },
  });
  try {
    const { sessionId } = await zi.getState();
    const sessionFile = previous?.sessionFile ?? journalOf(task.ziHome, sessionId);
    let turns = 0;
    zi.onEvent((event) => {
      if (event.type === "turn_end") turns++;
      context.heartbeat({ sessionFile, event: event.type, turns } satisfies ZiHeartbeat);
    });
    context.heartbeat({ sessionFile, event: "started", turns } satisfies ZiHeartbeat);
    if (task.model) {
      const slash = task.model.indexOf("/");
      await zi.selectModel(task.model.slice(0, slash), task.model.slice(slash + 1));
    }
    if (task.budget) await zi.request("session.set_budget", { run: task.budget });

    const completionId = `${task.taskId}-${context.info.attempt}`;
    const text = previous?.sessionFile ? CONTINUE : task.prompt;
    // Temporal's cancellation interrupts the run (listening before the prompt: it may come at once);
    // the settled session then ends the activity cancelled.
    const interrupt = () => void zi.interrupt().catch(() => undefined);
    context.cancellationSignal.addEventListener("abort", interrupt, { once: true });
    await zi.prompt({ delivery: "direct", text, completionId, ...(task.outputSchema && { outputSchema: task.outputSchema }) });
    if (context.cancellationSignal.aborted) interrupt();
    const idle = await zi.awaitIdle({ completionId });
    context.cancellationSignal.removeEventListener("abort", interrupt);
    if (context.cancellationSignal.aborted) await context.cancelled;
    const completion = "completion" in idle ? idle.completion : null;
    const usage = await zi.getUsage();
    const reason = completion?.reason ?? (completion?.stopReason === "error" ? "failed" : completion?.stopReason === "aborted" ? "interrupted" : "completed");
    if (reason === "failed") throw ApplicationFailure.retryable(completion?.errorMessage ?? "the run failed", "ZiRunFailed", { sessionFile });
    return {
      taskId: task.taskId,
      reason,
      text: completion?.text ?? "",
      ...(completion?.structured !== undefined && { structured: completion.structured }),
      ...(completion?.budget !== undefined && { budget: completion.budget }),
      sessionFile,
      attempt: context.info.attempt,
      modelCalls: usage.session.modelCalls,
      costUsd: usage.session.cost + usage.children.cost,
    };
  } finally {
    await zi.close();
  }
}

/** `$ZI_HOME/sessions/<timestamp>_<sessionId>.jsonl` (docs/journal.md). */
function journalOf(ziHome: string, sessionId: string): string {
  const dir = join(ziHome, "sessions");
  const file = readdirSync(dir).find((name) => name.endsWith(`_${sessionId}.jsonl`));
  if (!file) throw ApplicationFailure.nonRetryable(`no journal for session ${sessionId} under ${dir}`);
  return join(dir, file);
}
