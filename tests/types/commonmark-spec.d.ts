declare module "commonmark-spec" {
  /** The specification's examples, in order: Markdown (tabs written as →) and the HTML it renders to. */
  export const tests: { markdown: string; html: string; section: string; number: number }[];
}
