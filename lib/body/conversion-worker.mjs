// The conversion pool's worker file in a checkout: plain JavaScript, loaded by
// path at run time outside Next's bundle, loading the TypeScript worker (and
// the one editor schema) with tsx. The standalone build replaces this file
// with a bundle of the same module (scripts/build-standalone.ts).
import { tsImport } from "tsx/esm/api";

const worker = await tsImport("./conversion-worker-main.ts", import.meta.url);
export default worker.default;
