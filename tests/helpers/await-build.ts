import { awaitBuild } from "./build-status";

// A setup file of the layers that run the production build: before the test
// file loads, waits for the app's build the global setup started
// (tests/helpers/global-setup.ts) and fails the file with the build's error
// if it failed. The deployments' tests wait for theirs too.
await awaitBuild("app");
