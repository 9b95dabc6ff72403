import pkg from "@/package.json";

export const API_NAME = "Notes API";
export const API_VERSION: string = pkg.version;
