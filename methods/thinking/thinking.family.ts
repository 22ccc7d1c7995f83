import type { MethodFamily } from "../../core/kernel/method-family.js";
import { ListThinkingMethod } from "./list-thinking.method.js";
import { SelectThinkingMethod } from "./select-thinking.method.js";

export const thinkingFamily: MethodFamily = {
  family: "thinking",
  methods: [ListThinkingMethod, SelectThinkingMethod],
};
