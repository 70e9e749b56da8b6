// A small Orbit graph for the neo4j source tests: the status database's graph tables in an
// in-memory DuckDB with the example project's people, components and dependencies and a few
// issues linked by "blocks": ORB-40 (open bug) -> ORB-41 -> ORB-42 <- ORB-43 (done task); ORB-44
// (done bug) -> ORB-45; ORB-46 (open bug) -> ORB-47 (done story).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "data/database.hpp"
#include "data/open_database.hpp"

namespace planfirst::sources {

inline constexpr const char* kOrbitGraphSql = R"sql(
CREATE TABLE people(id TEXT PRIMARY KEY, name TEXT, role TEXT);
CREATE TABLE components(id TEXT PRIMARY KEY, name TEXT, owner_id TEXT REFERENCES people, description TEXT);
CREATE TABLE component_dependencies(component_id TEXT REFERENCES components, depends_on_id TEXT REFERENCES components);
CREATE TABLE issues(key TEXT PRIMARY KEY, title TEXT, type TEXT, priority TEXT, status TEXT, component_id TEXT,
                    assignee_id TEXT, reporter_id TEXT, sprint_id INTEGER NULL, story_points INTEGER NULL,
                    created_at TIMESTAMP, resolved_at TIMESTAMP NULL, due_date DATE NULL);
CREATE TABLE issue_links(from_key TEXT, to_key TEXT, kind TEXT);
INSERT INTO people VALUES
  ('maya.chen', 'Maya Chen', 'engineering manager'), ('daniel.okafor', 'Daniel Okafor', 'tech lead'),
  ('priya.raman', 'Priya Raman', 'backend engineer'), ('lucas.moreau', 'Lucas Moreau', 'backend engineer'),
  ('sofia.alvarez', 'Sofia Alvarez', 'frontend engineer'), ('tomasz.nowak', 'Tomasz Nowak', 'site reliability engineer'),
  ('aiko.tanaka', 'Aiko Tanaka', 'QA engineer'), ('ben.carter', 'Ben Carter', 'data engineer');
INSERT INTO components VALUES
  ('web-dashboard', 'Web Dashboard', 'sofia.alvarez', 'single-page application'),
  ('api-gateway', 'API Gateway', 'lucas.moreau', 'public REST API'),
  ('auth-service', 'Auth Service', 'lucas.moreau', 'sign-in, tokens, roles'),
  ('billing-engine', 'Billing Engine', 'daniel.okafor', 'invoice lifecycle'),
  ('invoice-renderer', 'Invoice Renderer', 'ben.carter', 'PDF and HTML invoices'),
  ('payments-connector', 'Payments Connector', 'priya.raman', 'charges through the PSP'),
  ('reporting-pipeline', 'Reporting Pipeline', 'ben.carter', 'nightly reports');
INSERT INTO component_dependencies VALUES
  ('web-dashboard', 'api-gateway'), ('api-gateway', 'auth-service'), ('api-gateway', 'billing-engine'),
  ('billing-engine', 'invoice-renderer'), ('billing-engine', 'payments-connector'),
  ('reporting-pipeline', 'billing-engine');
INSERT INTO issues VALUES
  ('ORB-40', 'Webhook retries double-apply refunds', 'bug', 'P1', 'open', 'payments-connector', 'priya.raman', 'aiko.tanaka', 14, 3, '2026-11-20 09:00:00', NULL, '2026-11-22'),
  ('ORB-41', 'Refund ledger export', 'story', 'P2', 'in_progress', 'billing-engine', 'daniel.okafor', 'maya.chen', 14, 5, '2026-11-18 10:00:00', NULL, NULL),
  ('ORB-42', 'Finance dashboard refunds view', 'story', 'P3', 'open', 'web-dashboard', 'sofia.alvarez', 'maya.chen', 14, 3, '2026-11-18 11:00:00', NULL, NULL),
  ('ORB-43', 'Refund API contract', 'task', 'P3', 'done', 'api-gateway', 'lucas.moreau', 'lucas.moreau', 13, 2, '2026-11-10 09:00:00', '2026-11-16 15:00:00', NULL),
  ('ORB-44', 'PDF footer overlaps totals', 'bug', 'P4', 'done', 'invoice-renderer', 'ben.carter', 'aiko.tanaka', 13, 1, '2026-11-09 09:00:00', '2026-11-12 09:00:00', NULL),
  ('ORB-45', 'Invoice template refresh', 'story', 'P3', 'open', 'invoice-renderer', 'ben.carter', 'maya.chen', 14, 3, '2026-11-19 09:00:00', NULL, NULL),
  ('ORB-46', 'Token refresh loop on expiry', 'bug', 'P2', 'open', 'auth-service', 'lucas.moreau', 'aiko.tanaka', 14, 2, '2026-11-21 09:00:00', NULL, '2026-11-28'),
  ('ORB-47', 'SSO sign-in page', 'story', 'P3', 'done', 'web-dashboard', 'sofia.alvarez', 'maya.chen', 13, 5, '2026-11-02 09:00:00', '2026-11-20 09:00:00', NULL);
INSERT INTO issue_links VALUES
  ('ORB-40', 'ORB-41', 'blocks'), ('ORB-41', 'ORB-42', 'blocks'), ('ORB-43', 'ORB-42', 'blocks'),
  ('ORB-44', 'ORB-45', 'blocks'), ('ORB-46', 'ORB-47', 'blocks'), ('ORB-42', 'ORB-45', 'relates_to');
)sql";

inline std::unique_ptr<data::Database> orbit_graph_database() {
  auto db = data::open_database("duckdb::memory:");
  if (!db) throw std::runtime_error(db.error().describe());
  if (auto loaded = (*db)->exec(kOrbitGraphSql); !loaded) throw std::runtime_error(loaded.error().describe());
  return std::move(*db);
}

}  // namespace planfirst::sources
