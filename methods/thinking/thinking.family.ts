import { lazy, type MethodFamily } from "../../core/family/family-api.js";

export const thinkingFamily = {
  family: "thinking",
  methods: {
    "thinking.list": lazy(() => import("./list-thinking.method.js"), "ListThinkingMethod"),
    "thinking.select": lazy(() => import("./select-thinking.method.js"), "SelectThinkingMethod"),
  },
} satisfies MethodFamily;
