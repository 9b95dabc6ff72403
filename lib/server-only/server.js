// What "#server-only" resolves to everywhere else: route handlers, server
// components, and the Node scripts (npm start, npm run users), where the
// `server-only` package itself would throw outside React's server runtime.
export {};
