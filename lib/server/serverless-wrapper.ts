import awsLambda from "@opennextjs/aws/overrides/wrappers/aws-lambda.js";
import type { Wrapper, WrapperHandler } from "@opennextjs/aws/types/overrides.js";
import { REQUEST_ID_HEADER } from "@/lib/errors";
import { requestIdOf, startRequest } from "@/lib/server/request-log";

// The serverless function's wrapper (open-next.config.ts): OpenNext's own
// AWS Lambda wrapper, with each request logged as the other servers log it
// (lib/server/request-log.ts), under the request id it is answered with.
const wrapper: WrapperHandler = (handler, converter) =>
  awsLambda.wrapper(async (event, options) => {
    const requestId = requestIdOf(event.headers[REQUEST_ID_HEADER]);
    const logged = startRequest({ method: event.method, url: event.rawPath, requestId });
    try {
      const result = await logged.run(() => handler({ ...event, headers: { ...event.headers, [REQUEST_ID_HEADER]: requestId } }, options));
      logged.end(result.statusCode);
      return result;
    } catch (err) {
      logged.end(500);
      throw err;
    }
  }, converter);

export default { wrapper, name: "aws-lambda-logged", supportStreaming: false } satisfies Wrapper;
