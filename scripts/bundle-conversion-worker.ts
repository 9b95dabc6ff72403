// The second half of `npm run build`, after `next build`: the conversion
// worker bundled into the build's folder (scripts/lib/build-app.ts).
import { bundleConversionWorker, bundledWorkerPath } from "@/scripts/lib/build-app";

await bundleConversionWorker(process.cwd(), bundledWorkerPath(process.cwd(), process.env.NEXT_DIST_DIR || ".next"));
