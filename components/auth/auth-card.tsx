import type { ReactNode } from "react";
import { Brand } from "@/components/ui/brand";

export function AuthCard({ title, lead, children, footer }: { title: string; lead?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth-card">
      <Brand />
      <div>
        <h1>{title}</h1>
        {lead ? <p className="lead">{lead}</p> : null}
      </div>
      {children}
      {footer ? <div className="auth-foot">{footer}</div> : null}
    </div>
  );
}
