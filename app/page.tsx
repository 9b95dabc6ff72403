import Link from "next/link";
import { redirect } from "next/navigation";
import { Brand } from "@/components/ui/brand";
import { getCurrentUser } from "@/lib/auth/current-user";

const FEATURES = [
  { title: "A block editor that saves itself", text: "Headings, lists, checklists, code, tables and images. Every change is saved as you type." },
  { title: "Find anything as you type", text: "Search every title and word, filter by tag, and share a search as a link." },
  { title: "Your agents, same notes", text: "Agents use the REST API with short-lived tokens from your identity account: no API keys in the app." },
  { title: "Nothing lost to a race", text: "If an agent edits a note you have open, you choose which version stays. Nothing is overwritten silently." },
];

export default async function HomePage() {
  if (await getCurrentUser()) redirect("/notes");
  return (
    <div className="landing">
      <header className="landing-nav">
        <Brand />
        <nav className="links" aria-label="Account">
          <Link className="btn btn-ghost" href="/sign-in">
            Sign in
          </Link>
          <Link className="btn btn-primary" href="/sign-up">
            Sign up
          </Link>
        </nav>
      </header>
      <main id="main">
        <section className="hero">
          <h1>Notes for you and your agents.</h1>
          <p>
            Write in a calm block editor in the browser. Your coding agents and assistants read, search and write the same notes through an exact
            REST API, joined to you by your email.
          </p>
          <div className="actions">
            <Link className="btn btn-primary" href="/sign-up">
              Create a free account
            </Link>
            <Link className="btn" href="/sign-in">
              I have an account
            </Link>
          </div>
        </section>
        <section className="features" aria-label="Features">
          {FEATURES.map((feature) => (
            <div key={feature.title} className="feature">
              <h2>{feature.title}</h2>
              <p>{feature.text}</p>
            </div>
          ))}
        </section>
      </main>
    </div>
  );
}
