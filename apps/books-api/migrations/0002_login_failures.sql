-- Failed-login windows shared by every replica (src/auth/postgres-login-throttle.ts): one row per
-- throttled key ('user:<name>' or 'client:<address>'), its count in the current window and when
-- that window ends. Reservations lock both rows of an attempt, so they are exact across replicas.
CREATE TABLE login_failures (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  window_ends_at timestamptz NOT NULL
);

CREATE INDEX login_failures_window_ends_at ON login_failures (window_ends_at);
