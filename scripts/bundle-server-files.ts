// The second half of `npm run build`, after `next build`: the conversion
// worker bundled into the build's folder (scripts/lib/build-app.ts).
import { bundledWorkerPath } from "@/lib/editor/worker-file";
import { bundleConversionWorker } from "@/scripts/lib/build-app";

await bundleConversionWorker(process.cwd(), bundledWorkerPath(process.cwd(), process.env.NEXT_DIST_DIR || ".next"));
