-- The revision policy: when a write to a note is a revision of its own, when
-- it joins the newest one, and what a revision stores. This file is its one
-- source. It is no migration: lib/db/migrate.ts applies it after the
-- migrations, every time they run, so a change to the policy is a change to
-- this file and never a migration restating it. Everything here is
-- CREATE OR REPLACE of functions; the triggers that call note_revision_record
-- are created by the note_revisions migration.
--
-- The rule (the README's History paragraph and the OpenAPI descriptions say
-- the same):
--
-- * Every write that makes a new version of a note is in its history as the
--   note as it was after it: title, content, text, tags and pin, exactly as
--   stored, whichever of them the write changed.
-- * A restore (notes.author carries restoredFrom), an agent's write (api,
--   mcp), an operator's script (system) and a person's save (browser) are each
--   a revision of their own. The one exception: a person's save in the
--   browser joins the newest revision when that is a save by the same person
--   in the same editor session (notes.author carries session: one visit to
--   the note in one tab, from opening it until leaving it), not a restore,
--   last written less than note_revision_pause() ago and begun less than
--   note_revision_fold_window() ago, with nothing written in between. So a
--   new version begins after a pause, when the person comes back to the note
--   (or opens it in another tab), after the fold window, and after another
--   author's write or a restore; a state that stood for the pause, and the
--   state just before another writer's write or a restore, always stays.
-- * A write that changes none of those fields (a tag renamed, a PATCH of the
--   same values) gives the newest revision its version, but not its time
--   (updated_at is when the revision's state was last written: the pause is
--   measured from it), except a restore, and except another writer's write
--   (another author, or the same person outside the session) while the
--   newest is a person's save their next save could still join: those are
--   revisions of their own, so the rules above hold for them too.
-- * Since a restore is a revision of its own and the revision before it is
--   the state it replaced, restoring that one undoes the restore.
--
-- Storage grows with the change: a revision keeps the blocks and the text
-- that differ from the revision before it (the equal leading and trailing
-- blocks, and characters, are kept by count), and the whole note (a keyframe)
-- only for a new note, a content that is not a list of blocks and changed,
-- a chain note_revision_max_depth() long, or a change that keeps nothing.
-- Who writes comes from the transaction's notes.author setting
-- (lib/db/author.ts). A write that knows what it kept of the blocks and of
-- the text (a targeted edit) says so in the notes.change setting
-- (lib/revisions/known-change.ts), and those counts are taken instead of
-- comparing the whole bodies; counts that cannot be true are ignored.

-- How long a person may pause between saves that still join one revision:
-- saves come 0.7 s after typing stops, and a pause of two minutes is the
-- person stopping (to re-read, to look something up, to do something else),
-- so the note as it stood then is a version worth going back to.
CREATE OR REPLACE FUNCTION note_revision_pause() RETURNS interval LANGUAGE sql IMMUTABLE AS $$ SELECT interval '2 minutes' $$;

-- How long a person's consecutive saves keep joining the revision the first of them began.
CREATE OR REPLACE FUNCTION note_revision_fold_window() RETURNS interval LANGUAGE sql IMMUTABLE AS $$ SELECT interval '5 minutes' $$;

-- How many revisions may follow a keyframe: a read applies at most this many changes.
CREATE OR REPLACE FUNCTION note_revision_max_depth() RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT 100';

-- The length, in characters, of the longest common start of two texts: a
-- binary search, each step comparing two starts, so a 100 KB text costs a few
-- passes, not one comparison per character.
CREATE OR REPLACE FUNCTION note_revision_common_head(a text, b text) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  lo integer := 0;
  hi integer := least(length(a), length(b));
  mid integer;
BEGIN
  IF left(a, hi) = left(b, hi) THEN RETURN hi; END IF;
  hi := hi - 1;
  WHILE lo < hi LOOP
    mid := (lo + hi + 1) / 2;
    IF left(a, mid) = left(b, mid) THEN lo := mid; ELSE hi := mid - 1; END IF;
  END LOOP;
  RETURN lo;
END
$$;

-- The same for the common end, of at most `most` characters.
CREATE OR REPLACE FUNCTION note_revision_common_tail(a text, b text, most integer) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  lo integer := 0;
  hi integer := least(most, length(a), length(b));
  mid integer;
BEGIN
  IF hi <= 0 THEN RETURN 0; END IF;
  IF right(a, hi) = right(b, hi) THEN RETURN hi; END IF;
  hi := hi - 1;
  WHILE lo < hi LOOP
    mid := (lo + hi + 1) / 2;
    IF right(a, mid) = right(b, mid) THEN lo := mid; ELSE hi := mid - 1; END IF;
  END LOOP;
  RETURN lo;
END
$$;

-- Records the revision of a note's write (the notes_revision_insert and
-- notes_revision_update triggers), by the rule above.
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
  known jsonb := nullif(current_setting('notes.change', true), '')::jsonb;
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
    -- What the write says it kept (lib/revisions/known-change.ts), if it speaks of this write.
    IF known IS NOT NULL AND ((known->>'noteId')::uuid IS DISTINCT FROM NEW.id OR (known->>'version')::integer IS DISTINCT FROM OLD.version) THEN
      known := NULL;
    END IF;
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
      head := (known->>'keepHead')::integer;
      tail := (known->>'keepTail')::integer;
      IF head IS NULL OR tail IS NULL OR head < 0 OR tail < 0 OR head + tail > least(n_old, n_new) THEN
        -- Equal leading blocks, then equal trailing blocks of what is left (each array read once).
        SELECT coalesce(min(a.i) - 1, least(n_old, n_new)) INTO head
        FROM jsonb_array_elements(OLD.content) WITH ORDINALITY a(e, i)
        JOIN jsonb_array_elements(NEW.content) WITH ORDINALITY b(e, i) ON a.i = b.i
        WHERE a.e <> b.e;
        SELECT coalesce(min(n_old - a.i), least(n_old, n_new) - head) INTO tail
        FROM jsonb_array_elements(OLD.content) WITH ORDINALITY a(e, i)
        JOIN jsonb_array_elements(NEW.content) WITH ORDINALITY b(e, i) ON n_old - a.i = n_new - b.i
        WHERE a.i > head AND b.i > head AND a.e <> b.e;
      END IF;
      IF fold AND NOT latest.keyframe AND latest.blocks IS NOT NULL THEN
        -- Still relative to the revision before the one folded into: what both kept.
        head := least(head, latest.keep_head);
        tail := least(tail, latest.keep_tail);
      END IF;
      -- The blocks between (read by position, not by unpacking the whole array).
      middle := CASE WHEN head >= n_new - tail THEN '[]'::jsonb
        ELSE jsonb_path_query_array(NEW.content, format('$[%s to %s]', head, n_new - tail - 1)::jsonpath) END;
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
      text_head := (known->>'textKeepHead')::integer;
      text_tail := (known->>'textKeepTail')::integer;
      IF text_head IS NULL OR text_tail IS NULL OR text_head < 0 OR text_tail < 0
         OR text_head + text_tail > least(length(OLD.content_text), length(NEW.content_text)) THEN
        text_head := note_revision_common_head(OLD.content_text, NEW.content_text);
        text_tail := note_revision_common_tail(OLD.content_text, NEW.content_text, least(length(OLD.content_text), length(NEW.content_text)) - text_head);
      END IF;
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
