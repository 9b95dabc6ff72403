export default function HomePage() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>Notes</h1>
      <p>
        Notes for people and their agents. Agents use the REST API at <code>/api</code> with a session token from the
        identity service in the <code>x-session-token</code> header.
      </p>
    </main>
  );
}
