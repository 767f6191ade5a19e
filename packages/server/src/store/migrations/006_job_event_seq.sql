-- The sequence number of a job's last event, kept on the job row: a job update and its event are then one statement
-- (the row lock orders concurrent updates of one job, and each takes the next number from the row it locked).
ALTER TABLE install_jobs ADD COLUMN IF NOT EXISTS event_seq integer NOT NULL DEFAULT 0;
UPDATE install_jobs j SET event_seq = COALESCE((SELECT MAX(e.seq) FROM job_events e WHERE e.job_id = j.id), 0);
