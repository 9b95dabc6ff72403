export default function NoteLoading() {
  return (
    <div className="editor-page" aria-busy="true" aria-label="Loading note">
      <div className="skeleton" style={{ height: 28, width: 90, margin: "10px 0 24px" }} />
      <div className="skeleton" style={{ height: 40, width: "60%", marginBottom: 24 }} />
      <div className="skeleton" style={{ height: 18, width: "80%", marginBottom: 12 }} />
      <div className="skeleton" style={{ height: 18, width: "70%" }} />
    </div>
  );
}
