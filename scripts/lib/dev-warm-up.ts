import { AUTH_BASE_PATH, NOTES_PATH } from "@/lib/http/paths";

/**
 * What a development server compiles before anyone uses it (npm run dev
 * before its banner, the browser tests' `next dev`), after the health check
 * (the database's first use), side by side: the notes routes the banner's
 * commands and an open note call, the pages a person opens first and the
 * sign-in route (signed out, each page compiles before its redirect to sign-in),
 * and Next's own error page (a path it cannot decode answers 400 with it; a
 * browser that leaves mid-request gets it too, which compiled it after the banner).
 */
export const WARM_UP_ROUTES = [
  NOTES_PATH,
  // A note's own route: the open note's page checks it for changes.
  `${NOTES_PATH}/00000000-0000-4000-8000-000000000000`,
  "/",
  "/sign-in",
  `${AUTH_BASE_PATH}/ok`,
  "/notes",
  "/notes/00000000-0000-4000-8000-000000000000",
  "/notes/%E0%A4%A",
];
