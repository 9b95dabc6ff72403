import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

// Not type-aware: typescript-eslint's type-checked presets take over 90 s on
// two cores here, and tsc --noEmit (in `npm run lint`) checks types already.
export default defineConfig([
  ...nextVitals,
  ...nextTs,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // Dropping fields by destructuring (`const { id: _id, ...rest } = x`) is
      // how we omit them; the rest object is what is used.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  {
    // Async Server Components (pages, layouts) render once per request: Date.now() there is
    // the request's time, passed to client components so the server's and the
    // browser's first render agree. (No page under app/ is a client component.)
    files: ["app/**/page.tsx", "app/**/layout.tsx"],
    rules: { "react-hooks/purity": "off" },
  },
  {
    // Tests and the benchmark read JSON bodies whose shape their assertions
    // (and the OpenAPI check) verify; typing each body would restate the schema.
    files: ["tests/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  globalIgnores([
    "lib/generated/**",
    ".next*/**",
    "next-env.d.ts",
    ".data/**",
    "coverage/**",
    "test-results/**",
    "bench/results/**",
    // build output: the serverless function (npm run build:serverless), the identity service's file (npm run build:identity)
    ".open-next/**",
    "dist/**",
  ]),
]);
