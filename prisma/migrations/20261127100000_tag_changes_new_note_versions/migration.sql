-- A note's JSON shows its tags (id, name, createdAt) and its ETag is its
-- version, so renaming or deleting a tag changes every note that carries it:
-- each gets a new version in the same transaction, whoever writes (REST, MCP,
-- the browser, plain SQL). The new version's own triggers do the rest: the
-- account's feed lists each note as updated, numbered under the account's
-- write lock the tag's write already holds (see change_feed), and its history
-- stays whole (see note_revisions): after a rename nothing a revision shows
-- changed, so the newest revision stands for the new version too; a deletion
-- takes the tag off the note, a change of its tags like any other. updated_at
-- stays: nobody edited the note, and lists keep their order.

-- A rename, including one that only changes the case: citext compares those
-- equal, but the JSON shows the new name.
CREATE FUNCTION tags_renamed_note_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notes n SET version = n.version + 1
  FROM note_tags nt WHERE nt.tag_id = NEW.id AND n.id = nt.note_id;
  RETURN NULL;
END
$$;

-- Named to fire after tags_change_update: the tag's change is numbered before its notes'.
CREATE TRIGGER tags_renamed_note_versions AFTER UPDATE ON tags
  FOR EACH ROW WHEN (OLD.name::text IS DISTINCT FROM NEW.name::text) EXECUTE FUNCTION tags_renamed_note_versions();

-- A deletion: its links go by the foreign key's cascade, before the tag's own
-- triggers run. Only links whose tag is gone count: a note given a new tag set
-- or moved to the trash removes links too, and its own write is its version.
-- An account being erased (its users row already gone) records nothing.
CREATE FUNCTION note_tags_tag_deleted_note_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notes n SET version = n.version + 1
  WHERE n.id IN (SELECT d.note_id FROM deleted d WHERE NOT EXISTS (SELECT 1 FROM tags t WHERE t.id = d.tag_id))
    AND EXISTS (SELECT 1 FROM users u WHERE u.id = n.user_id);
  RETURN NULL;
END
$$;

CREATE TRIGGER note_tags_tag_deleted_note_versions AFTER DELETE ON note_tags
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION note_tags_tag_deleted_note_versions();

-- The feed listed a rename only when the name compared different as citext:
-- one that only changed the case was left out.
DROP TRIGGER tags_change_update ON tags;
CREATE TRIGGER tags_change_update AFTER UPDATE ON tags
  FOR EACH ROW WHEN (OLD.name::text IS DISTINCT FROM NEW.name::text) EXECUTE FUNCTION tags_change_record();
