import type { Reporter, TestModule } from "vitest/node";

type Span = { start: number; end: number; files: number; tests: number };

/**
 * After a run, prints each layer's (Vitest project's) wall time, from its
 * first file's start to its last file's end, with its file and test counts.
 * The layers run one after another (vitest.config.ts, groupOrder), so the
 * times add up to the run's.
 */
export default class LayerTimes implements Reporter {
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(module: TestModule): void {
    const name = module.project.name || "default";
    const span = this.spans.get(name) ?? { start: Date.now(), end: Date.now(), files: 0, tests: 0 };
    this.spans.set(name, span);
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name || "default");
    if (!span) return;
    span.end = Date.now();
    span.files += 1;
    span.tests += [...module.children.allTests()].length;
  }

  onTestRunEnd(): void {
    if (this.spans.size === 0) return;
    const parts = [...this.spans].map(([name, span]) => `${name} ${((span.end - span.start) / 1000).toFixed(0)} s (${span.files} files, ${span.tests} tests)`);
    process.stdout.write(`\nLayer times: ${parts.join(", ")}\n`);
  }
}
