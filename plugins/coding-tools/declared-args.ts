/** An argument as a declaration reads it: the string given, or undefined (declarations never throw on odd shapes). */
export function declaredString(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}
