// The serverless build (npm run build:serverless): OpenNext for AWS Lambda,
// one function for every route behind a function URL (API Gateway v2 events),
// static files from the assets folder. docs/deploy.md says why and how.
import type { OpenNextConfig } from "@opennextjs/aws/types/open-next.js";

const config = {
  default: {
    override: {
      // OpenNext's AWS Lambda wrapper, with a log line per request.
      wrapper: () => import("./lib/server/serverless-wrapper").then((module) => module.default),
      converter: "aws-apigw-v2",
      // Every page reads the signed-in account: nothing is cached between
      // requests, so no S3 cache, DynamoDB tag table or SQS revalidation queue.
      incrementalCache: "dummy",
      tagCache: "dummy",
      queue: "dummy",
    },
  },
  dangerous: { disableIncrementalCache: true, disableTagCache: true },
  // Only `next build`: the conversion worker is bundled into the function
  // afterwards (scripts/build-serverless.ts), not beside a `.next` build. Given
  // a build made already with standalone output (the tests' own), OpenNext
  // packages that one instead of building again.
  buildCommand: process.env.SERVERLESS_PREBUILT === "1" ? "true" : "node node_modules/next/dist/bin/next build",
} satisfies OpenNextConfig;

export default config;
