-- The W3C traceparent of the request that accepted a job (or re-opened one of its steps): the worker that claims the
-- job, in this process or another, continues that trace, so one trace holds the request, the job, its steps and their
-- backing calls. Null when the request carried no trace and tracing was off, or for a job no request started.
ALTER TABLE install_jobs ADD COLUMN IF NOT EXISTS trace_parent text;
