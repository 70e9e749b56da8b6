-- Orbit status database: the same schema on DuckDB and PostgreSQL (standard SQL types).
-- Load into an empty database: schema.sql, then data.sql (written by generate.py).
CREATE TABLE people (
    id TEXT PRIMARY KEY,
    name TEXT,
    role TEXT
);

CREATE TABLE components (
    id TEXT PRIMARY KEY,
    name TEXT,
    owner_id TEXT REFERENCES people (id),
    description TEXT
);

CREATE TABLE component_dependencies (
    component_id TEXT REFERENCES components (id),
    depends_on_id TEXT REFERENCES components (id)
);

CREATE TABLE sprints (
    id INTEGER PRIMARY KEY,
    name TEXT,
    start_date DATE,
    end_date DATE,
    state TEXT,
    goal TEXT
);

CREATE TABLE issues (
    key TEXT PRIMARY KEY,
    title TEXT,
    type TEXT,
    priority TEXT,
    status TEXT,
    component_id TEXT,
    assignee_id TEXT,
    reporter_id TEXT,
    sprint_id INTEGER NULL,
    story_points INTEGER NULL,
    created_at TIMESTAMP,
    resolved_at TIMESTAMP NULL,
    due_date DATE NULL
);

CREATE TABLE issue_links (
    from_key TEXT,
    to_key TEXT,
    kind TEXT
);

CREATE TABLE sprint_commitments (
    sprint_id INTEGER,
    issue_key TEXT
);

CREATE TABLE commits (
    sha TEXT PRIMARY KEY,
    author_id TEXT,
    component_id TEXT,
    issue_key TEXT NULL,
    message TEXT,
    committed_at TIMESTAMP,
    additions INTEGER,
    deletions INTEGER
);
