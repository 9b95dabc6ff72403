import type { Reporter, TestModule } from "vitest/node";

type Span = { start: number; end: number; files: number; tests: number; fileMs: number };

/**
 * After a run, prints each layer's (Vitest project's) wall time, from its
 * first file's start to its last file's end, with its file and test counts
 * and the time its files took together. The layers of one group run side by
 * side (vitest.config.ts), so their wall times overlap; the run's total is
 * Vitest's own "Duration".
 */
export default class LayerTimes implements Reporter {
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(module: TestModule): void {
    const name = module.project.name || "default";
    const span = this.spans.get(name) ?? { start: Date.now(), end: Date.now(), files: 0, tests: 0, fileMs: 0 };
    this.spans.set(name, span);
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name || "default");
    if (!span) return;
    span.end = Date.now();
    span.files += 1;
    span.tests += [...module.children.allTests()].length;
    span.fileMs += module.diagnostic().duration;
  }

  onTestRunEnd(): void {
    if (this.spans.size === 0) return;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    const parts = [...this.spans].map(
      ([name, span]) => `${name} ${seconds(span.end - span.start)} (${span.files} files, ${span.tests} tests, ${seconds(span.fileMs)} of file time)`,
    );
    process.stdout.write(`\nLayer times: ${parts.join(", ")}\n`);
  }
}
