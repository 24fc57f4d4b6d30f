// The command line: `knockout-judge eval` (eval.ts) grades datasets through a running service and prints
// the evaluation report; `export` (export.ts) writes a graded evaluation's grades; `compare` (compare.ts)
// holds a candidate run's figures to a baseline's.
import { parseCli, USAGE } from "./args.ts";
import { runCompare } from "./compare.ts";
import { runEval } from "./eval.ts";
import { runExport } from "./export.ts";
import { type CliIo, nodeIo } from "./io.ts";

export async function main(argv: readonly string[], io: CliIo = nodeIo()): Promise<number> {
  if (argv[0] === "export") return runExport(argv.slice(1), io.env);
  if (argv[0] === "compare") return runCompare(argv.slice(1), io);
  const cli = parseCli(argv, io.env);
  if (!cli.ok) {
    io.err.write(cli.error ? `knockout-judge: ${cli.error}\n\n${USAGE}` : USAGE);
    return cli.error ? 2 : 0;
  }
  return runEval(cli.options, io);
}
