// What "#server-only" resolves to in a browser bundle: Next.js refuses to build a
// client component that imports `server-only`, and names the import chain.
import "server-only";
