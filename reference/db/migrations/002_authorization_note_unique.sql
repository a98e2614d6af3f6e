-- The non-web flow: a user's note (with its fingerprint) names one authorization (DECISIONS:
-- a duplicate note is 422 already_exists). The handlers check first; this index keeps the rule
-- under concurrent requests on PostgreSQL. md5(note) keeps index rows small whatever the note.
create unique index authorizations_user_note
  on authorizations (user_id, md5(note), coalesce(fingerprint, ''))
  where note is not null;
