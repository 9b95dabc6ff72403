// npm run build:identity: the identity service and its CLI (identity/cli.ts)
// as one file for Node 22, dist/identity.mjs, which needs nothing installed
// beside it. identity/Dockerfile runs this; docs/deploy.md runs the file.
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outfile = path.join(root, "dist", "identity.mjs");

await build({
  entryPoints: [path.join(root, "identity/cli.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  tsconfig: path.join(root, "tsconfig.json"),
  // Bundled CommonJS still calls require for Node's own modules.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  logLevel: "warning",
});
process.stdout.write(`${path.relative(root, outfile)}: node ${path.relative(root, outfile)} serve --host 0.0.0.0 (state in $IDENTITY_DATA_DIR)\n`);
