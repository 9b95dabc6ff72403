/**
 * Node flags of the production server. A bounded old space makes V8 collect
 * garbage rather than grow toward the machine's memory: under load the server
 * otherwise settles at 600+ MB of mostly dead response strings, with it at
 * about 250 MB, at the same throughput. NODE_OPTIONS can still override it.
 */
export const SERVER_NODE_ARGS = ["--max-old-space-size=256"];
