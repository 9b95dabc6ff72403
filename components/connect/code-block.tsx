import { CopyButton } from "@/components/connect/copy-button";

export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="code">
      <pre aria-label={label} tabIndex={0}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} />
    </div>
  );
}
