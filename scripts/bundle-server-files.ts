// The second half of `npm run build`, after `next build`: the conversion
// worker and the server's entry bundled into the build's folder (scripts/lib/build-app.ts).
import { bundleServerFiles } from "@/scripts/lib/build-app";

await bundleServerFiles(process.cwd(), process.env.NEXT_DIST_DIR || ".next");
