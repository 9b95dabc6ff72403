// A worker thread of the conversion benchmark (bench/conversion.ts): loads the TypeScript job with tsx.
import { tsImport } from "tsx/esm/api";

await tsImport("./conversion-job.ts", import.meta.url);
