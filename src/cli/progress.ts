/** A progress bar on stderr: redrawn in place on a terminal, a line per tenth otherwise (logs, CI). */
export function progressBar(label: string, total: number, stream: { write(text: string): unknown; isTTY?: boolean } = process.stderr) {
  const started = Date.now();
  let lastTenth = -1;
  const render = (done: number, note = "") => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const line = `${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} questions, ${seconds}s${note ? `, ${note}` : ""}`;
    if (stream.isTTY) stream.write(`\r${line}\x1b[K`);
    else {
      const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (tenth !== lastTenth) stream.write(`${line}\n`);
      lastTenth = tenth;
    }
  };
  return {
    update: render,
    finish(note = "") {
      // on a terminal the last state is redrawn; in a log it is printed unless it just was
      if (stream.isTTY || lastTenth !== 10 || note) {
        lastTenth = -1;
        render(total, note);
      }
      if (stream.isTTY) stream.write("\n");
    },
  };
}
