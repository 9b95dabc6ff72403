import pkg from "@/package.json";

// The API's name and version, in GET /api, the OpenAPI document and the MCP server's info.
export const API_NAME = "Notes API";
export const API_VERSION: string = pkg.version;
