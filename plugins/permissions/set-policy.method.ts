import { RpcMethod, arrayOf, closed, count, inject, literal, ref, type RpcHandler } from "../../core/family/family-api.js";
import { PERMISSIONS, type PermissionPort } from "./permission.port.js";
import { SetPolicyParams } from "./set-policy.params.js";
import { normalizeRule } from "./rule-check.js";

@RpcMethod({
  params: SetPolicyParams,
  summary: "Sets the client's layer of the tool permission policy (default, rules, wait bound); returns the effective policy (plugin family).",
  result: closed(
    {
      policy: closed({ default: literal("allow", "ask", "deny"), rules: arrayOf(ref("SourcedPermissionRule")), waitSeconds: count }, ["waitSeconds"]),
    },
  ),
})
export class SetPolicyMethod implements RpcHandler<SetPolicyParams> {
  constructor(@inject(PERMISSIONS) private readonly permissions: PermissionPort) {}

  handle(params: SetPolicyParams) {
    const rules = (params.rules ?? []).map((rule) => normalizeRule(rule));
    const policy = this.permissions.setPolicy(params.waitSeconds === undefined ? { default: params.default, rules } : { default: params.default, rules, waitSeconds: params.waitSeconds });
    return { policy };
  }
}
