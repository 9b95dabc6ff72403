import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

export default function NotFound() {
  return (
    <main className="auth-wrap" id="main">
      <EmptyState
        titleAs="h1"
        title="Page not found"
        style={{ maxWidth: 460 }}
        actions={
          <Link href="/" className="btn btn-primary">
            Go to Notes
          </Link>
        }
      >
        There is nothing at this address.
      </EmptyState>
    </main>
  );
}
