import type { ZiExtensionApi } from "../../core/extensions/extension-api.js";
import { RpcError } from "../../core/family/family-api.js";
import type { WorkPlan, WorkPlanStep } from "../../core/wire/session-types.js";
import type { WorkPlanPort } from "./work-plan.port.js";

/**
 * The bridge between the plugin's two halves: its extension receives Zi's extension API while Zi
 * loads, and its RPC methods reach the work plan through that API (nothing else of the session).
 */
export class WorkPlanGateway implements WorkPlanPort {
  private api: ZiExtensionApi | undefined;

  attach(api: ZiExtensionApi): void {
    this.api = api;
  }

  get(): WorkPlan {
    return this.session().getState().workPlan;
  }

  replace(steps: WorkPlanStep[]): WorkPlan {
    return this.session().replaceWorkPlan(steps);
  }

  private session(): ZiExtensionApi {
    if (!this.api) throw new RpcError("operation_failed", "the work-plan plugin was not loaded");
    return this.api;
  }
}
