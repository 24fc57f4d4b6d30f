// The command line read by node:util's parseArgs, with its refusal turned into a usage error: each
// command (eval, export, compare) says what is wrong with exit code 2 instead of a stack.
import { type ParseArgsConfig, parseArgs } from "node:util";

export type ReadArgs<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T & { args: string[] }>>;

export function readArgs<T extends ParseArgsConfig>(
  config: T,
  argv: readonly string[],
): { ok: true; parsed: ReadArgs<T> } | { ok: false; error: string } {
  try {
    return { ok: true, parsed: parseArgs({ ...config, args: [...argv] }) as ReadArgs<T> };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
