-- A write that changes nothing a revision shows gives the newest revision its
-- version, and no longer its time: updated_at is when the revision's state was
-- last written, and the pause a person's next save is measured against. Taking
-- the time of a write that changed nothing reopened a revision that had stood
-- for the pause: another writer's no-op (or the session's own) after two
-- minutes, then the person's next save folded into it, and the state that had
-- stood for two minutes was lost from the history.
--
-- Below is note_revision_record as the revision_versions_at_pauses_and_sessions
-- migration wrote it, with that one line changed.
CREATE OR REPLACE FUNCTION note_revision_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  author jsonb := coalesce(nullif(current_setting('notes.author', true), ''), '{"kind":"system"}')::jsonb;
  restoring integer := (author->>'restoredFrom')::integer;
  editor_session uuid := (author->>'session')::uuid;
  latest note_revisions%ROWTYPE;
  has_latest boolean;
  tags uuid[];
  same_writer boolean;
  open_to_fold boolean;
  fold boolean;
  same_content boolean;
  n_old integer;
  n_new integer;
  head integer;
  tail integer;
  middle jsonb;
  text_head integer;
  text_tail integer;
BEGIN
  SELECT coalesce(array_agg(nt.tag_id ORDER BY nt.tag_id), '{}') INTO tags FROM note_tags nt WHERE nt.note_id = NEW.id;
  SELECT * INTO latest FROM note_revisions r WHERE r.note_id = NEW.id ORDER BY r.version DESC LIMIT 1 FOR UPDATE;
  has_latest := FOUND;
  -- Already recorded: a note coming back from the trash with its history.
  IF has_latest AND latest.version >= NEW.version THEN
    RETURN NULL;
  END IF;
  -- The history continues from the state this write started from.
  IF TG_OP = 'UPDATE' AND has_latest AND latest.version = OLD.version THEN
    -- The same author and, for a person's save, the same editor session.
    same_writer := latest.author_kind = author->>'kind'
      AND latest.author_email IS NOT DISTINCT FROM author->>'email'
      AND latest.author_agent IS NOT DISTINCT FROM author->>'agent'
      AND latest.author_session IS NOT DISTINCT FROM editor_session;
    -- The newest revision is a person's save that their next save in the same session may still join.
    open_to_fold := latest.author_kind = 'browser' AND latest.restored_from IS NULL AND latest.author_session IS NOT NULL
      AND latest.updated_at > now() - note_revision_pause() AND latest.created_at > now() - note_revision_fold_window();
    same_content := NEW.content = OLD.content;
    -- Nothing a revision shows changed (a tag renamed, a PATCH of the same values): the newest
    -- revision stands for this version too, unless it is open to a fold by someone else's write.
    IF restoring IS NULL AND (same_writer OR NOT open_to_fold)
       AND same_content AND NEW.title = OLD.title AND NEW.content_text = OLD.content_text
       AND NEW.pinned = OLD.pinned AND tags IS NOT DISTINCT FROM latest.tag_ids THEN
      UPDATE note_revisions SET version = NEW.version WHERE id = latest.id;
      RETURN NULL;
    END IF;
    fold := restoring IS NULL AND open_to_fold AND same_writer;
    -- The blocks that changed since the revision before (null: none), if they can be told apart.
    IF same_content THEN
      head := 0; tail := 0; middle := NULL;
    ELSIF jsonb_typeof(OLD.content) = 'array' AND jsonb_typeof(NEW.content) = 'array' THEN
      n_old := jsonb_array_length(OLD.content);
      n_new := jsonb_array_length(NEW.content);
      -- Equal leading blocks, then equal trailing blocks of what is left (each array read once).
      SELECT coalesce(min(a.i) - 1, least(n_old, n_new)) INTO head
      FROM jsonb_array_elements(OLD.content) WITH ORDINALITY a(e, i)
      JOIN jsonb_array_elements(NEW.content) WITH ORDINALITY b(e, i) ON a.i = b.i
      WHERE a.e <> b.e;
      SELECT coalesce(min(n_old - a.i), least(n_old, n_new) - head) INTO tail
      FROM jsonb_array_elements(OLD.content) WITH ORDINALITY a(e, i)
      JOIN jsonb_array_elements(NEW.content) WITH ORDINALITY b(e, i) ON n_old - a.i = n_new - b.i
      WHERE a.i > head AND b.i > head AND a.e <> b.e;
      IF fold AND NOT latest.keyframe AND latest.blocks IS NOT NULL THEN
        -- Still relative to the revision before the one folded into: what both kept.
        head := least(head, latest.keep_head);
        tail := least(tail, latest.keep_tail);
      END IF;
      SELECT coalesce(jsonb_agg(b.e ORDER BY b.i), '[]') INTO middle
      FROM jsonb_array_elements(NEW.content) WITH ORDINALITY b(e, i) WHERE b.i > head AND b.i <= n_new - tail;
    ELSE
      -- A content that is not a list of blocks changed: only a keyframe holds it.
      head := NULL;
    END IF;
    IF fold AND NOT latest.keyframe AND latest.blocks IS NOT NULL AND same_content THEN
      -- The folded revision's own change of blocks still stands.
      head := latest.keep_head; tail := latest.keep_tail; middle := latest.blocks;
    END IF;
    -- The characters of the text kept from the revision before, when its text is known exactly
    -- (revisions recorded before text was kept beside blocks derive it, so start anew).
    IF latest.content_text IS NULL THEN
      text_head := 0; text_tail := 0;
    ELSE
      text_head := note_revision_common_head(OLD.content_text, NEW.content_text);
      text_tail := note_revision_common_tail(OLD.content_text, NEW.content_text, least(length(OLD.content_text), length(NEW.content_text)) - text_head);
      IF fold AND NOT latest.keyframe THEN
        text_head := least(text_head, coalesce(latest.text_keep_head, 0));
        text_tail := least(text_tail, coalesce(latest.text_keep_tail, 0));
      END IF;
    END IF;
    IF fold AND latest.keyframe THEN
      UPDATE note_revisions SET
        version = NEW.version, title = NEW.title, tag_ids = tags, pinned = NEW.pinned, updated_at = now(),
        blocks = NEW.content, content_text = NEW.content_text, text_keep_head = 0, text_keep_tail = 0
      WHERE id = latest.id;
      RETURN NULL;
    END IF;
    IF fold AND head IS NOT NULL THEN
      UPDATE note_revisions SET
        version = NEW.version, title = NEW.title, tag_ids = tags, pinned = NEW.pinned, updated_at = now(),
        keep_head = head, keep_tail = tail, blocks = middle,
        content_text = substr(NEW.content_text, text_head + 1, length(NEW.content_text) - text_head - text_tail),
        text_keep_head = text_head, text_keep_tail = text_tail
      WHERE id = latest.id;
      RETURN NULL;
    END IF;
    -- A change too different to fold (a content that is no list of blocks): the folded revision becomes a keyframe.
    IF fold THEN
      UPDATE note_revisions SET
        version = NEW.version, title = NEW.title, tag_ids = tags, pinned = NEW.pinned, updated_at = now(),
        keyframe = true, depth = 0, keep_head = 0, keep_tail = 0, blocks = NEW.content,
        content_text = NEW.content_text, text_keep_head = 0, text_keep_tail = 0
      WHERE id = latest.id;
      RETURN NULL;
    END IF;
    IF head IS NOT NULL AND latest.depth < note_revision_max_depth() AND (same_content OR head + tail > 0 OR text_head + text_tail > 0) THEN
      INSERT INTO note_revisions (note_id, user_id, version, author_kind, author_email, author_agent, author_session, restored_from, title, tag_ids, pinned,
        keyframe, depth, keep_head, keep_tail, blocks, content_text, text_keep_head, text_keep_tail)
      VALUES (NEW.id, NEW.user_id, NEW.version, author->>'kind', author->>'email', author->>'agent', editor_session, restoring, NEW.title, tags, NEW.pinned,
        false, latest.depth + 1, head, tail, middle,
        substr(NEW.content_text, text_head + 1, length(NEW.content_text) - text_head - text_tail), text_head, text_tail);
      RETURN NULL;
    END IF;
  END IF;
  -- A new note, a broken chain, a whole rewrite or a long chain: the whole note.
  INSERT INTO note_revisions (note_id, user_id, version, author_kind, author_email, author_agent, author_session, restored_from, title, tag_ids, pinned,
    keyframe, depth, keep_head, keep_tail, blocks, content_text, text_keep_head, text_keep_tail)
  VALUES (NEW.id, NEW.user_id, NEW.version, author->>'kind', author->>'email', author->>'agent', editor_session, restoring, NEW.title, tags, NEW.pinned,
    true, 0, 0, 0, NEW.content, NEW.content_text, 0, 0);
  RETURN NULL;
END
$$;
