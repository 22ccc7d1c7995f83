import type { MethodFamily } from "../../core/family/family-api.js";
import { ListThinkingMethod } from "./list-thinking.method.js";
import { SelectThinkingMethod } from "./select-thinking.method.js";

export const thinkingFamily = {
  family: "thinking",
  methods: { "thinking.list": ListThinkingMethod, "thinking.select": SelectThinkingMethod },
} satisfies MethodFamily;
