import axe from "axe-core";
import type { Page } from "playwright-core";

/** The WCAG 2.1 A and AA rules. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe-core's serious and critical findings on the page as it is shown now (or
 * on the part `include` selects), one line each: rule, impact, what it asks
 * and where. axe is put into the page once and run again at each call, so a
 * page checked at several widths and schemes pays for it once.
 */
export async function seriousAxeFindings(page: Page, options: { include?: string } = {}): Promise<string[]> {
  // Evaluated as a script, as a browser extension would: the page's own Content-Security-Policy does not apply.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  // Colours that are changing (a scheme just switched, a hover ending) are read once they have arrived.
  await page.evaluate(() => Promise.all(document.getAnimations().filter((animation) => animation instanceof CSSTransition).map((animation) => animation.finished.catch(() => undefined))));
  const results = await page.evaluate(
    ({ include, tags }) =>
      (window as unknown as { axe: typeof axe }).axe.run(include ? { include: [include] } : document, {
        runOnly: { type: "tag", values: tags },
        // Off by default in axe (experimental): a control's name must hold its visible words, for people who speak to their computer.
        rules: { "label-content-name-mismatch": { enabled: true } },
      }),
    { include: options.include, tags: WCAG_TAGS },
  );
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => {
      const where = violation.nodes
        .slice(0, 3)
        .map((node) => `${node.target.join(" ")}${node.failureSummary ? ` (${node.failureSummary.replace(/\s+/g, " ").slice(0, 160)})` : ""}`)
        .join("; ");
      return `${violation.id} [${violation.impact}] ${violation.help}: ${where}`;
    });
}
