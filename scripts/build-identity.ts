// npm run build:identity: the identity service and its CLI (identity/cli.ts)
// as one file for Node 22, dist/identity.mjs, which needs nothing installed
// beside it. identity/Dockerfile runs this; docs/deploy.md runs the file.
import path from "node:path";
import { bundleForNode } from "@/scripts/lib/build-app";

const root = path.resolve(import.meta.dirname, "..");
const outfile = path.join(root, "dist", "identity.mjs");

await bundleForNode(root, "identity/cli.ts", outfile, { standalone: true });
process.stdout.write(`${path.relative(root, outfile)}: node ${path.relative(root, outfile)} serve --host 0.0.0.0 (state in $IDENTITY_DATA_DIR)\n`);
