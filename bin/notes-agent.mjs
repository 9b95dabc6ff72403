#!/usr/bin/env node
// The agent tool as a package bin: loads its TypeScript entry through tsx,
// so plain `node` (or the `notes-agent` link npm creates) can run it.
import { tsImport } from "tsx/esm/api";

await tsImport("../identity/agent-cli.ts", import.meta.url);
