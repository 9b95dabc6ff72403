"use client";

import { useEffect, useState } from "react";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

function formatRelative(iso: string, now: number): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds / 60), "minute");
}

/**
 * "5 minutes ago", kept fresh. The first render uses the server's clock
 * (`now`) so server and browser render the same text; it then follows the
 * browser's clock.
 */
export function RelativeTime({ iso, now, prefix = "" }: { iso: string; now: number; prefix?: string }) {
  const [current, setCurrent] = useState(now);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the browser's clock, only once hydration has matched the server's text
    setCurrent(Date.now());
    const timer = window.setInterval(() => setCurrent(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  const full = new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });
  return (
    <time dateTime={iso} title={full} suppressHydrationWarning>
      {prefix}
      {formatRelative(iso, current)}
    </time>
  );
}
