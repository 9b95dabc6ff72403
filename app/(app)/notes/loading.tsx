export default function NotesLoading() {
  return (
    <div className="page" aria-busy="true" aria-label="Loading notes">
      <div className="skeleton" style={{ height: 30, width: 120, marginBottom: 28 }} />
      <div className="skeleton" style={{ height: 44, marginBottom: 16 }} />
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="skeleton" style={{ height: 64, marginBottom: 8 }} />
      ))}
    </div>
  );
}
